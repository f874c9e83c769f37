// The Ask panel of the search dialog: streams `/ask?mode=generate` as Server-Sent
// Events (start → result* → complete) and renders the answer as it arrives. The
// answer is Markdown from a model or the extractive answerer: it is turned into DOM
// nodes by hand (text nodes only, links limited to http(s) and site paths), never
// through innerHTML, and `[n]` becomes a link to the n-th result. Loaded on first use.
import { createParser } from 'eventsource-parser';
import { loadStylesheet } from './stylesheet.ts';
import askCss from '../../styles/ask.css?url';

interface AskResult {
  name: string;
  url: string;
}

/** A same-site result URL as a path (the gateway may answer under another origin than the build's SITE_URL). */
function sitePath(url: string): string {
  try {
    const u = new URL(url, location.href);
    return `${u.pathname}${u.search}${u.hash}`;
  } catch {
    return '#';
  }
}

function safeHref(href: string): string | null {
  if (href.startsWith('/') && !href.startsWith('//')) return href;
  try {
    const u = new URL(href);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : null;
  } catch {
    return null;
  }
}

/** Inline Markdown → nodes: `code`, **bold**, [text](url), [n] citations, bare text. */
function inline(text: string, results: readonly AskResult[]): Node[] {
  const out: Node[] = [];
  const re = /`([^`]+)`|\*\*([^*]+)\*\*|\[([^\]]+)\]\(([^)\s]+)\)|\[(\d{1,2})\]|(https?:\/\/[^\s<>)\]]+)/g;
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > last) out.push(document.createTextNode(text.slice(last, m.index)));
    last = re.lastIndex;
    const [whole, code, bold, linkText, linkHref, citation, bare] = m;
    if (code !== undefined) {
      const el = document.createElement('code');
      el.textContent = code;
      out.push(el);
    } else if (bold !== undefined) {
      const el = document.createElement('strong');
      el.append(...inline(bold, results));
      out.push(el);
    } else if (linkText !== undefined) {
      const href = safeHref(linkHref!);
      if (!href) {
        out.push(document.createTextNode(linkText));
        continue;
      }
      const a = document.createElement('a');
      a.href = href;
      a.textContent = linkText;
      out.push(a);
    } else if (citation !== undefined) {
      const result = results[Number(citation) - 1];
      if (!result) {
        out.push(document.createTextNode(whole));
        continue;
      }
      const a = document.createElement('a');
      a.className = 'ask-cite';
      a.href = sitePath(result.url);
      a.textContent = whole;
      a.title = result.name;
      a.setAttribute('aria-label', `Source ${citation}: ${result.name}`);
      out.push(a);
    } else if (bare !== undefined) {
      const a = document.createElement('a');
      a.href = bare;
      a.textContent = bare;
      out.push(a);
    }
  }
  if (last < text.length) out.push(document.createTextNode(text.slice(last)));
  return out;
}

/** Block Markdown → nodes: fenced code, headings, lists, paragraphs. */
export function renderAnswer(markdown: string, results: readonly AskResult[]): DocumentFragment {
  const fragment = document.createDocumentFragment();
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  let list: HTMLElement | null = null;
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) {
      const p = document.createElement('p');
      paragraph.forEach((line, i) => {
        if (i > 0) p.append(document.createElement('br'));
        p.append(...inline(line, results));
      });
      fragment.append(p);
    }
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = /^\s*(```|~~~)/.exec(line);
    if (fence) {
      flush();
      list = null;
      const body: string[] = [];
      while (++i < lines.length && !lines[i]!.trim().startsWith(fence[1]!)) body.push(lines[i]!);
      const pre = document.createElement('pre');
      pre.tabIndex = 0;
      pre.append(Object.assign(document.createElement('code'), { textContent: body.join('\n') }));
      fragment.append(pre);
      continue;
    }
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    const item = /^\s*(?:[-*]|(\d+)[.)])\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      list = null;
      const p = document.createElement('p');
      const strong = document.createElement('strong');
      strong.append(...inline(heading[1]!, results));
      p.append(strong);
      fragment.append(p);
    } else if (item) {
      flush();
      const tag = item[1] ? 'OL' : 'UL';
      if (!list || list.tagName !== tag) {
        list = document.createElement(tag);
        fragment.append(list);
      }
      const li = document.createElement('li');
      li.append(...inline(item[2]!, results));
      list.append(li);
    } else if (!line.trim()) {
      flush();
      list = null;
    } else {
      list = null;
      paragraph.push(line);
    }
  }
  flush();
  return fragment;
}

export interface AskView {
  /** Where the answer is drawn. */
  output: HTMLElement;
  /** A polite live region for progress and errors. */
  status: (message: string) => void;
}

/** What a reader is told when /ask answers with an error status. */
function failure(res: Response): string {
  if (res.status === 429) {
    const wait = Number(res.headers.get('retry-after'));
    return `Too many questions in a short time. Try again${Number.isFinite(wait) && wait > 0 ? ` in ${wait} seconds` : ' in a minute'}.`;
  }
  if (res.status === 404 || res.status === 405) return 'Asking is not available on this copy of the site (it needs the docs gateway). Use Search instead.';
  if (res.status === 503) return 'The answering service is busy or unavailable right now. Try again in a moment, or use Search.';
  return `The question could not be answered (error ${res.status}). Try again, or use Search.`;
}

let running: AbortController | undefined;

/** Asks `query` and streams the answer into the view. Resolves when the stream ends. */
export async function ask(query: string, view: AskView): Promise<void> {
  running?.abort();
  const controller = new AbortController();
  running = controller;
  const { output } = view;
  await loadStylesheet(askCss);
  output.replaceChildren();
  output.removeAttribute('data-not-covered');
  output.setAttribute('aria-busy', 'true');
  view.status('Answering…');
  const results: AskResult[] = [];
  let text = '';
  let cited = 0;
  let notCovered = false;
  let frame = 0;
  const draw = () => {
    frame = 0;
    output.replaceChildren(renderAnswer(text, results));
  };
  const fail = (message: string) => {
    const p = document.createElement('p');
    p.className = 'ask-error';
    p.textContent = message;
    output.replaceChildren(p);
    view.status(message);
  };
  try {
    const res = await fetch(`/ask?mode=generate&streaming=true&query=${encodeURIComponent(query)}`, {
      headers: { accept: 'text/event-stream' },
      signal: controller.signal,
    });
    if (!res.ok || !res.body || !/event-stream/.test(res.headers.get('content-type') ?? '')) {
      fail(res.ok ? 'The answer arrived in a form this page cannot read. Try again, or use Search.' : failure(res));
      return;
    }
    const parser = createParser({
      onEvent(event) {
        let data: { type?: string; result?: AskResult; text?: string; answer?: string; citations?: unknown[]; _meta?: { answer_status?: string } };
        try {
          data = JSON.parse(event.data);
        } catch {
          return;
        }
        if (event.event === 'complete') notCovered = data._meta?.answer_status === 'not_covered';
        if (event.event === 'result' && data.type === 'result' && data.result) results.push(data.result);
        else if (event.event === 'result' && data.type === 'text' && data.text) text += data.text;
        else if (event.event === 'result' && data.type === 'answer' && typeof data.answer === 'string') {
          text = data.answer;
          cited = Array.isArray(data.citations) ? data.citations.length : 0;
        }
        else return;
        frame ||= requestAnimationFrame(draw);
      },
    });
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(value);
    }
    if (frame) cancelAnimationFrame(frame);
    draw();
    // "Not covered" is said as such (a mark on the answer, its own status line), never dressed as an answer.
    output.toggleAttribute('data-not-covered', notCovered);
    if (!text.trim()) fail(results.length ? 'No answer came back. The pages below may help; or use Search.' : 'The docs do not cover this question. Try other words, or use Search.');
    else if (notCovered) view.status('The docs do not cover this question. The closest pages are listed.');
    else view.status(`Answer ready${cited ? `, citing ${cited} page${cited === 1 ? '' : 's'}` : ''}.`);
  } catch (error) {
    if (controller.signal.aborted) return;
    fail(`The question could not be sent (${error instanceof Error ? error.message : 'network error'}). Check the connection and try again.`);
  } finally {
    if (running === controller) output.setAttribute('aria-busy', 'false');
  }
}
