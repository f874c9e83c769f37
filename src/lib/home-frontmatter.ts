// A home page whose words live in its frontmatter: VitePress's home layout (`hero` with its
// name, text, tagline and action buttons; `features` with a title, details and link each)
// and Starlight's splash `hero` (a tagline and actions). The source tool renders them from
// the frontmatter; here they are written out as Markdown in front of the page's body, so
// the HTML page and its twin say what the site is instead of being empty. Shared by the
// docs loader (the HTML) and the docs model (the twin), so both read the same.

interface Action { text?: unknown; link?: unknown }
interface Feature { title?: unknown; details?: unknown; link?: unknown }

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value.replace(/\s+/g, ' ').trim() : undefined);
const list = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? value.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null) : []);

/** The frontmatter's `hero` and `features` as Markdown lines (none when it has neither). */
export function homeMarkdown(frontmatter: Record<string, unknown>): string[] {
  const lines: string[] = [];
  const hero = typeof frontmatter.hero === 'object' && frontmatter.hero !== null ? (frontmatter.hero as Record<string, unknown>) : undefined;
  if (hero) {
    const name = text(hero.name);
    const heading = text(hero.text);
    if (name && heading) lines.push(`**${name}**: ${heading}`, '');
    else if (name ?? heading) lines.push(`**${name ?? heading}**`, '');
    const tagline = text(hero.tagline);
    if (tagline) lines.push(tagline, '');
    const actions = list(hero.actions).flatMap((a: Action) => {
      const label = text(a.text);
      const link = text(a.link);
      return label && link ? [`[${label}](${link})`] : [];
    });
    if (actions.length) lines.push(actions.join(' · '), '');
  }
  const features = list(frontmatter.features).flatMap((f: Feature) => {
    const title = text(f.title);
    const details = text(f.details);
    const link = text(f.link);
    if (!title && !details) return [];
    const lead = title ? (link ? `[**${title}**](${link})` : `**${title}**`) : '';
    return [`- ${[lead, details].filter(Boolean).join(': ')}`];
  });
  if (features.length) lines.push(...features, '');
  return lines;
}

/**
 * `body` with the home page's Markdown in front. `body` from a frontmatter parse that keeps the frontmatter's lines
 * blank (`blankLines`, the count of them) takes the new lines in their place, so every line of the body keeps its
 * number for the link check; they always fit, as each comes from one or more lines of the frontmatter.
 */
export function withHome(frontmatter: Record<string, unknown>, body: string, blankLines = 0): string {
  const home = homeMarkdown(frontmatter);
  if (home.length === 0) return body;
  if (home.length <= blankLines) {
    const lines = body.split('\n');
    lines.splice(0, home.length, ...home);
    return lines.join('\n');
  }
  return `${home.join('\n')}\n${body}`;
}
