// Agent-facing documents of the assistant site, each generated from one place so
// that the copies (HTML page and Markdown twin, SKILL.md and its digest) never drift.
import {
  ASK_PATH,
  ASSISTANT_API_VERSION,
  CHAT_PATH,
  MCP_PATH,
  agentAuthDeclaration,
  assistantLimits,
  chatFormatDescription,
  errorCodes,
  errorMeaning,
  errorStatus,
  mcpAskTool,
} from '../../../../gateway/contract/assistant-api.ts';
import { sha256 } from '../../../lib/markdown-twin.ts';
import { assistantAbsolute, type PortfolioModel } from './portfolio.ts';

export const SKILL_NAME = 'ask-the-portfolio';
export const SKILL_PATH = `/.well-known/agent-skills/${SKILL_NAME}/SKILL.md`;
export const AGENT_SKILLS_SCHEMA = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json';

const abs = assistantAbsolute;

/** The auth description page as Markdown: served at /auth.md and rendered into /auth. */
export function authMarkdown(model: PortfolioModel): string {
  const site = model.site;
  const declaration = JSON.stringify(agentAuthDeclaration(site.url), null, 2);
  const errorRows = errorCodes.map((c) => `| ${errorStatus[c]} | \`${c}\` | ${errorMeaning[c]} |`).join('\n');
  return `# Agent access and authentication

> How people and AI agents use the ${site.name} API: no authentication, the limits, the errors and the discovery files.

This site has no user accounts, no paid tiers and nothing gated. Every page and both assistant endpoints are open to anonymous clients: there is no login, API key, bearer token, OAuth flow, client registration or token exchange anywhere. Requests carry no \`Authorization\` header, never meet a \`401\` or a \`WWW-Authenticate\` challenge, and there are no auth-specific error codes.

## Auth declaration

The machine-readable declaration of the above:

\`\`\`json
${declaration}
\`\`\`

The protected-resource metadata it points at (${abs('/.well-known/oauth-protected-resource')}) lists no authorization servers, no bearer methods and no scopes.

## Endpoints

- \`POST ${abs(CHAT_PATH)}\`: multi-turn chat for browsers on this site. Body \`{"messages": [{"role": "user", "content": "…"}]}\`: 1 to ${assistantLimits.messagesMax} messages, role \`user\` or \`assistant\`, the last from the user, each \`content\` at most ${assistantLimits.contentMaxChars} characters. The \`Origin\` header must be present and be ${new URL(site.url).origin}; anything else gets \`403 forbidden\` (server-side clients use \`/ask\`).
- \`POST ${abs(ASK_PATH)}\`: one question, for agents and servers; no \`Origin\` needed. Body \`{"query": "…"}\` (at most ${assistantLimits.queryMaxChars} characters). The answer is JSON \`{query_id, query, answer, sources, _meta}\`, or Server-Sent Events (\`start\`, \`result\`, \`complete\`) with \`Accept: text/event-stream\` or \`"prefer": {"streaming": true}\`.
- \`${abs(MCP_PATH)}\`: an MCP server (Streamable HTTP, stateless) with one tool, \`${mcpAskTool.name}\`. \`GET\` answers \`405\`.

Answers are grounded in the pages of this site only and name the pages they used.

The API keeps no state between requests: a chat client sends the conversation so far (up to ${assistantLimits.messagesMax} messages) with every request, and nothing is stored. There are no sessions, jobs or webhooks.

### Chat stream format

${chatFormatDescription}

## Limits

| Limit | Value |
|---|---|
| Requests | ${assistantLimits.rateLimitMax} per IP per minute; \`/api/chat\`, \`/ask\` and MCP tool calls share the budget |
| Rate-limit headers | \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\`, \`X-RateLimit-Reset\` (seconds) on every response |
| Messages per chat request | at most ${assistantLimits.messagesMax} |
| Characters per message \`content\` | at most ${assistantLimits.contentMaxChars} |
| Characters in \`query\` | at most ${assistantLimits.queryMaxChars} |

Over the rate limit the answer is \`429 rate_limited\` with \`Retry-After\` (seconds).

## Errors

Every non-2xx response is \`{"error": "…", "code": "…"}\`. Branch on \`code\`:

| Status | code | Meaning |
|---|---|---|
${errorRows}

Questions that try to override the assistant's instructions (for example "ignore previous instructions") or that carry abuse are refused with \`400 invalid_request\` before any model call.

## Versioning

The API contract version is \`${ASSISTANT_API_VERSION}\` (\`info.version\` of the OpenAPI description, \`_meta.version\` of every answer). Changes within a version are additive: new optional fields, events or headers; clients ignore what they do not know. A breaking change would ship under new paths, announced on this page, with the old ones kept working for at least six months. Nothing is deprecated today.

## Discovery

- [OpenAPI description](${abs('/.well-known/openapi.json')})
- [API catalog](${abs('/.well-known/api-catalog')}) (RFC 9727)
- [Agent skills index](${abs('/.well-known/agent-skills/index.json')}) with the [${SKILL_NAME}](${abs(SKILL_PATH)}) skill
- [MCP server card](${abs('/.well-known/mcp/server-card.json')})
- [llms.txt](${abs('/llms.txt')}) and the [home page as Markdown](${abs('/index.md')})
`;
}

/** /llms.txt (llmstxt.org): H1, summary, then links to the Markdown twins. */
export function llmsTxt(model: PortfolioModel): string {
  const site = model.site;
  const line = (p: { title: string; slug: string; description: string }) =>
    `- [${p.title}](${abs(`/${p.slug}.md`)})${p.description ? `: ${p.description}` : ''}`;
  return [
    `# ${model.home.title}`,
    '',
    `> ${site.description}`,
    '',
    'Every page is available as Markdown: append `.md` to its URL (the home page is `/index.md`).',
    `Questions about the site owner: \`POST ${abs(ASK_PATH)}\` with \`{"query": "…"}\` (JSON or Server-Sent Events), or the \`${mcpAskTool.name}\` tool of the MCP server at \`${abs(MCP_PATH)}\`. ` +
      `No authentication; ${assistantLimits.rateLimitMax} requests per IP per minute. OpenAPI: ${abs('/.well-known/openapi.json')}.`,
    '',
    '## Pages',
    '',
    ...model.pages.map(line),
    '',
    '## API',
    '',
    `- [Agent access and authentication](${abs('/auth.md')}): endpoints, limits, error codes and the auth declaration`,
    `- [OpenAPI description](${abs('/.well-known/openapi.json')}): the assistant API`,
    `- [Skill: ${SKILL_NAME}](${abs(SKILL_PATH)}): how an agent asks this site questions`,
    '',
  ].join('\n');
}

/** The one agent skill: SKILL.md (Agent Skills format: YAML frontmatter with name and description). */
export function skillMarkdown(model: PortfolioModel): string {
  const site = model.site;
  const description = `Ask questions about ${model.home.title} (background, projects, writing, contact) and get answers grounded in ${new URL(site.url).host}, with the pages used. Use when a task needs facts about ${model.home.title} or their work.`;
  return `---
name: ${SKILL_NAME}
description: ${JSON.stringify(description)}
---

# Ask the portfolio

${site.name} answers questions about ${model.home.title} from the pages of ${site.url} only. It needs no credentials.

## Ask one question

\`\`\`http
POST ${abs(ASK_PATH)}
Content-Type: application/json

{"query": "Which search projects has ${model.home.title} led?"}
\`\`\`

The answer is JSON: \`answer\` (plain text), \`sources\` (\`title\`, \`url\`, \`content\` of each page used) and \`_meta\` (\`response_type\`, \`version\`, \`answer_backend\`).
For a stream, send \`Accept: text/event-stream\` (or \`"prefer": {"streaming": true}\`): events \`start\`, then \`result\` (\`{"type":"text"}\` pieces, then \`{"type":"answer"}\`), then \`complete\`.

## Rules

- \`query\`: 1 to ${assistantLimits.queryMaxChars} characters. Do not send instructions for the assistant; ask about the site owner.
- ${assistantLimits.rateLimitMax} requests per IP per minute. On \`429\` wait \`Retry-After\` seconds; on \`503\` (model backend unreachable) retry after 1 s, 2 s, 4 s.
- Errors are \`{"error", "code"}\`; branch on \`code\`.
- \`POST /api/chat\` is for browsers on the site itself (it requires a matching \`Origin\`); do not use it.

## Read the pages directly

Every page has a Markdown twin; the index is ${abs('/llms.txt')}:

${model.pages.map((p) => `- [${p.title}](${abs(`/${p.slug}.md`)})`).join('\n')}

## MCP

Streamable HTTP at ${abs(MCP_PATH)}, tool \`${mcpAskTool.name}\` with input \`{"query": "…"}\`.
`;
}

export function agentSkillsIndex(model: PortfolioModel): unknown {
  return {
    $schema: AGENT_SKILLS_SCHEMA,
    skills: [
      {
        name: SKILL_NAME,
        type: 'skill-md',
        description: `Ask questions about ${model.home.title} and their work; answers are grounded in this site's pages and cite them.`,
        url: abs(SKILL_PATH),
        digest: `sha256:${sha256(skillMarkdown(model))}`,
      },
    ],
  };
}

export function apiCatalog(): unknown {
  const openapi = [{ href: abs('/.well-known/openapi.json'), type: 'application/openapi+json' }];
  const doc = [{ href: abs('/auth'), type: 'text/html' }, { href: abs('/auth.md'), type: 'text/markdown' }];
  return {
    linkset: [
      { anchor: abs(ASK_PATH), 'service-desc': openapi, 'service-doc': doc },
      { anchor: abs(CHAT_PATH), 'service-desc': openapi, 'service-doc': doc },
      {
        anchor: abs(MCP_PATH),
        'service-desc': [{ href: abs('/.well-known/mcp/server-card.json'), type: 'application/json' }, ...openapi],
        'service-doc': doc,
      },
    ],
  };
}

export function oauthProtectedResource(model: PortfolioModel): unknown {
  return {
    resource: model.site.url,
    resource_name: `${model.site.name} API`,
    authorization_servers: [],
    bearer_methods_supported: [],
    scopes_supported: [],
    resource_documentation: abs('/auth'),
  };
}

/** MCP server card (SEP-2127 shape, plus the SEP-1649 `serverInfo`/`transport` fields older readers look for). */
export function mcpServerCard(model: PortfolioModel, protocolVersion: string, inputSchema: unknown, outputSchema: unknown): unknown {
  const host = new URL(model.site.url).hostname.split('.').reverse().join('.');
  return {
    $schema: 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json',
    name: `${host}/portfolio-assistant`,
    title: `${model.site.name}`,
    version: ASSISTANT_API_VERSION,
    description: `Answers questions about ${model.home.title} from the pages of ${model.site.url}, naming the pages used.`,
    websiteUrl: model.site.url,
    remotes: [
      {
        type: 'streamable-http',
        url: abs(MCP_PATH),
        supportedProtocolVersions: [protocolVersion],
        authentication: { required: false, schemes: [] },
      },
    ],
    capabilities: { tools: { listChanged: false } },
    tools: [
      {
        name: mcpAskTool.name,
        title: mcpAskTool.title,
        description: mcpAskTool.description,
        inputSchema,
        outputSchema,
        annotations: mcpAskTool.annotations,
      },
    ],
    protocolVersion,
    serverInfo: { name: 'portfolio-assistant', title: model.site.name, version: ASSISTANT_API_VERSION },
    transport: { type: 'streamable-http', endpoint: MCP_PATH },
    authentication: { required: false, schemes: [] },
    documentation: abs('/auth'),
  };
}
