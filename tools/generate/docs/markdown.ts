/**
 * Markdown as GitHub reads it, as far as links go: the anchor a heading gets, the headings of a
 * document (outside code fences), and its links. The pages link to their own headings with it,
 * and the link check (docs.test.ts) checks every relative link of the docs with it.
 */

/** The text a heading shows: inline code, emphasis and links reduced to their words. */
function headingText(markdown: string): string {
  return markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/`([^`]*)`/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/(\*\*|__|\*|_)(\S.*?\S|\S)\1/g, "$2")
    .trim();
}

/**
 * GitHub's anchor of a heading (github-slugger's rule): lower case, every character but letters,
 * marks, digits, `_`, `-` and spaces dropped, spaces made hyphens. A repeated one gets `-1`, `-2`
 * (see `anchorsOf`).
 */
export function headingSlug(heading: string): string {
  return headingText(heading)
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** Lines of `markdown` outside fenced code blocks. */
function proseLines(markdown: string): string[] {
  const lines: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split("\n")) {
    const opened = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (opened && opened[1][0] === fence[0] && opened[1].length >= fence.length && line.trim() === opened[1])
        fence = undefined;
      continue;
    }
    if (opened) {
      fence = opened[1];
      continue;
    }
    lines.push(line);
  }
  return lines;
}

/** Every anchor a document has: its headings' (repeats numbered as GitHub numbers them) and HTML ids. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(markdown)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const slug = headingSlug(heading[1]);
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    for (const html of line.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(html[1]);
  }
  return anchors;
}

/** The targets of a document's links (`[text](target)` and `[label]: target`, outside code), in order. */
export function linksOf(markdown: string): string[] {
  const links: string[] = [];
  for (const line of proseLines(markdown)) {
    // Inline code is not a link.
    const prose = line.replace(/`[^`]*`/g, "");
    for (const link of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push(link[1]);
    const reference = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(prose);
    if (reference) links.push(reference[1]);
  }
  return links;
}
