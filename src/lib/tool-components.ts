// What another docs tool's components say in their attributes, shown as text once the
// component is gone (a component's children stay as they are). Shared by the Markdown
// conversion (src/lib/source-markdown.ts) and the MDX twin (src/lib/markdown-twin.ts),
// so a page reads the same in its HTML and its twin.
// - A tab: Starlight's `<TabItem label="npm">`, Docusaurus' `<TabItem value="npm" label="npm">`,
//   a package manager's slotted `<Fragment slot="npm">`: its label, in bold, leads its content.
// - A card: `<Card title="Routing">` its title in bold; `<LinkCard title="…" href="…" description="…">`
//   (Starlight's index pages are made of them) a link with its description.
// - An aside: `<Aside type="caution" title="…">` its title, or its type, in bold.

export type ComponentLead = { bold: string } | { link: { title: string; href: string; description?: string } };

/** What an opening tag of component `name` shows; `attribute` reads one of its string attributes. */
export function componentLead(name: string, attribute: (key: string) => string | undefined): ComponentLead | undefined {
  const text = (key: string) => attribute(key)?.trim() || undefined;
  if (name === 'LinkCard') {
    const title = text('title');
    const href = text('href');
    if (title && href) return { link: { title, href, description: text('description') } };
    return title ? { bold: title } : undefined;
  }
  const bold = name === 'TabItem' ? text('label') ?? text('value')
    : name === 'Fragment' ? text('slot')
      : name === 'Card' ? text('title')
        : name === 'Aside' ? text('title') ?? capitalized(text('type') ?? 'note')
          : undefined;
  return bold ? { bold } : undefined;
}

function capitalized(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** The lead as Markdown: `**npm**`, `[Routing](/docs/x): how URLs map to pages`. */
export function leadMarkdown(lead: ComponentLead, escape: (text: string) => string = (t) => t): string {
  if ('bold' in lead) return `**${escape(lead.bold)}**`;
  const { title, href, description } = lead.link;
  return `[${escape(title)}](${href})${description ? `: ${escape(description)}` : ''}`;
}
