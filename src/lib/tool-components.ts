// What another docs tool's components say in their attributes, shown as text once the
// component is gone (a component's children stay as they are). Shared by the Markdown
// conversion (src/lib/source-markdown.ts) and the MDX twin (src/lib/markdown-twin.ts),
// so a page reads the same in its HTML and its twin.
// - A tab: Starlight's `<TabItem label="npm">`, Docusaurus' `<TabItem value="npm" label="npm">`,
//   Mintlify's `<Tab title="Windows">`, a package manager's slotted `<Fragment slot="npm">`: its
//   label, in bold, leads its content; so do Mintlify's `<Step title>`, `<Accordion title>`,
//   `<Expandable title>` and a changelog's `<Update label="2026-11-27">`.
// - A card: `<Card title="Routing">` its title in bold, a link when it has an `href` (Mintlify);
//   `<LinkCard title="…" href="…" description="…">` (Starlight's index pages are made of them) a
//   link with its description.
// - An aside: `<Aside type="caution" title="…">` its title, or its type, in bold; Mintlify's
//   callouts (`<Note>`, `<Tip>`, `<Warning>` …) their name.
// - A field of a reference: Mintlify's `<ParamField path="--tag" type="string" default="latest">`
//   (also `query`, `body`, `header`) and `<ResponseField name="id" type="number">`: its name as
//   code in bold, its type and default after it.

export type ComponentLead =
  | { bold: string }
  | { link: { title: string; href: string; description?: string } }
  | { field: { name: string; type?: string; defaultValue?: string } };

/** An attribute's value written as a `{…}` expression (`title={<span>How <code>x</code> works</span>}`; one level of nested braces). */
export const TAG_EXPRESSION = String.raw`\{(?:[^{}"']|"[^"]*"|'[^']*'|\{[^{}]*\})*\}`;

/**
 * A quoted attribute value or an expression, as a pattern for a component's whole tag: inside either, `<`, `>` and `/`
 * are no end of the tag. The alternatives start with different characters, so a tag is read in one pass, whatever it
 * holds.
 */
export const TAG_VALUE = String.raw`"[^"]*"|'[^']*'|${TAG_EXPRESSION}`;

/**
 * The text of an attribute written as an expression: a string literal's string, a JSX element's text (`{<span>How
 * <code>bun create</code> works</span>}` → "How bun create works"); undefined for any other expression.
 */
export function expressionText(expression: string): string | undefined {
  const body = expression.trim();
  const literal = /^(["'`])([^"'`]*)\1$/.exec(body);
  if (literal) return literal[2];
  if (!/^<[A-Za-z>][\s\S]*>$/.test(body)) return undefined;
  return body.replace(/<[^<>]*>/g, '').replace(/\s+/g, ' ').trim() || undefined;
}

/** The attribute whose text leads a component, in bold: a tab's, a step's, a changelog entry's label. */
const LABELS = new Map([['Fragment', 'slot'], ['Tab', 'title'], ['Step', 'title'], ['Accordion', 'title'], ['Expandable', 'title'], ['Update', 'label']]);

/** Mintlify's callouts, each shown as its name in bold. */
const CALLOUTS = new Set(['Note', 'Tip', 'Info', 'Warning', 'Check', 'Danger', 'Caution']);

/** What an opening tag of component `name` shows; `attribute` reads one of its string attributes. */
export function componentLead(name: string, attribute: (key: string) => string | undefined): ComponentLead | undefined {
  const text = (key: string) => attribute(key)?.trim() || undefined;
  if (name === 'LinkCard' || name === 'Card') {
    const title = text('title');
    const href = text('href');
    if (title && href) return { link: { title, href, description: text('description') } };
    return title ? { bold: title } : undefined;
  }
  if (name === 'ParamField' || name === 'ResponseField') {
    const field = text('path') ?? text('query') ?? text('body') ?? text('header') ?? text('name');
    return field ? { field: { name: field, type: text('type'), defaultValue: text('default') } } : undefined;
  }
  if (CALLOUTS.has(name)) return { bold: text('title') ?? name };
  const bold = name === 'TabItem' ? text('label') ?? text('value')
    : name === 'Aside' ? text('title') ?? capitalized(text('type') ?? 'note')
      : LABELS.has(name) ? text(LABELS.get(name)!) : undefined;
  return bold ? { bold } : undefined;
}

/** A code span of `text` as Markdown writes it: fenced by a backtick run longer than any inside it, padded when it starts or ends with one. */
export function codeSpan(text: string): string {
  const ticks = '`'.repeat(Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length)) + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${text}${pad}${ticks}`;
}

function capitalized(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** The lead as Markdown: `**npm**`, `[Routing](/docs/x): how URLs map to pages`. */
export function leadMarkdown(lead: ComponentLead, escape: (text: string) => string = (t) => t): string {
  if ('bold' in lead) return `**${escape(lead.bold)}**`;
  if ('field' in lead) {
    const { name, type, defaultValue } = lead.field;
    return `**${codeSpan(name)}**${type ? ` ${codeSpan(type)}` : ''}${defaultValue ? ` (default ${codeSpan(defaultValue)})` : ''}`;
  }
  const { title, href, description } = lead.link;
  return `[${escape(title)}](${href})${description ? `: ${escape(description)}` : ''}`;
}
