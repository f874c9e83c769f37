// What visitors ask the shipped example portfolio, answered by the real gateway with no
// model configured: each question is answered (not "not covered") from the section that
// holds the answer, in the visitor's words rather than the pages' own (related words,
// synonyms.ts; a "know" or "good at" the example pages say as a visitor would). Its own
// gateway with a raised rate limit, so the table can grow without spending site.test.ts's
// budget of ten asks a minute.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AskResponse } from '../../gateway/contract/assistant-api.ts';
import type { RunningGateway } from '../helpers/gateway.ts';
import { SITE, jsonHeaders, startAssistantGateway } from './helpers/assistant.ts';

let gw: RunningGateway;

beforeAll(async () => {
  gw = await startAssistantGateway(inject('distDir'), { ASSISTANT_RATE_LIMIT_MAX: '1000' });
});
afterAll(async () => {
  await gw?.stop();
});

async function ask(query: string) {
  const res = await fetch(`${gw.assistantUrl}/ask`, { method: 'POST', headers: jsonHeaders, body: JSON.stringify({ query }) });
  expect(res.status).toBe(200);
  return AskResponse.parse(await res.json());
}

const NOT_COVERED = /^This site does not cover this question/;
const SKILLS = 'What I am good at, and the tools I do it with:';

describe("a visitor's questions to the example portfolio", () => {
  it.each([
    // no page says "spoken", "technologies", "hire": related words
    ['Has Robin spoken at conferences?', 'conference talks'],
    ['What technologies does Robin use?', SKILLS],
    // the About page says it as a visitor asks it
    ['What languages does Robin know?', SKILLS],
    ['Does Robin know Python?', SKILLS],
    ['What programming languages does Robin use?', SKILLS],
    ['What is Robin good at?', SKILLS],
    ["What are Robin's skills?", SKILLS],
  ])('%s → %s', async (query, opening) => {
    const { answer } = await ask(query);
    expect(answer).not.toMatch(NOT_COVERED);
    expect(answer.split('\n')[0]).toContain(opening);
  });

  it('Can I hire Robin? → the Contact page first', async () => {
    const hire = await ask('Can I hire Robin?');
    expect(hire.answer).not.toMatch(NOT_COVERED);
    expect(hire.sources[0]!.url).toBe(`${SITE}/contact`);
  });
});
