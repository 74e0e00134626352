/**
 * A small, strict XML reader for the UN consolidated list (docs/decisions/0007-sanctions-screening.md,
 * "The UN list"): elements, attributes, text, CDATA, comments, processing instructions and the five
 * predefined entities with character references. No DTD (a DOCTYPE is refused: no entity expansion),
 * no namespaces beyond keeping a prefixed name as written. Anything malformed throws an Error naming
 * the line. Pure and browser-safe; the project has no XML library and the list needs none.
 */

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The element's own text (its children's text is theirs), entities decoded, not trimmed. */
  text: string;
  /** The line its start tag is on, from 1. */
  line: number;
}

const NAME = /[A-Za-z_][\w.:-]*/y;
const ATTRIBUTE = /\s+([A-Za-z_][\w.:-]*)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/y;
const PREDEFINED: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** Reads an XML document into its root element; throws an Error naming the line of what is wrong. */
export function parseXml(source: string): XmlElement {
  const src = source.startsWith("\uFEFF") ? source.slice(1) : source;
  let line = 1;
  let counted = 0;
  /** The line of a position; positions asked for only grow, so the count is kept as it goes. */
  const lineOf = (pos: number) => {
    for (; counted < pos && counted < src.length; counted++) if (src.charCodeAt(counted) === 10) line++;
    return line;
  };
  const fail = (pos: number, what: string): never => {
    throw new Error(`Line ${lineOf(pos)}: ${what}.`);
  };
  const decode = (text: string, at: number) =>
    text.replace(/&([^;\s&<]*);?/g, (whole, ref: string) => {
      if (!whole.endsWith(";")) return fail(at, `an "&" that starts no entity ("${whole.slice(0, 12)}")`);
      const named = PREDEFINED[ref];
      if (named !== undefined) return named;
      const code = /^#x[0-9a-f]+$/i.test(ref) ? parseInt(ref.slice(2), 16) : /^#\d+$/.test(ref) ? parseInt(ref.slice(1), 10) : NaN;
      if (Number.isNaN(code) || code > 0x10ffff) return fail(at, `an unknown entity "&${ref};"`);
      return String.fromCodePoint(code);
    });
  const nameAt = (pos: number) => {
    NAME.lastIndex = pos;
    const m = NAME.exec(src);
    return m ? m[0] : fail(pos, "a tag without a name");
  };

  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  let i = 0;
  while (i < src.length) {
    const top = stack[stack.length - 1];
    if (src[i] !== "<") {
      const end = src.indexOf("<", i);
      const raw = src.slice(i, end === -1 ? src.length : end);
      if (top) top.text += decode(raw, i);
      else if (raw.trim() !== "") fail(i, "text outside the root element");
      i = end === -1 ? src.length : end;
      continue;
    }
    if (src.startsWith("<!--", i)) {
      const end = src.indexOf("-->", i + 4);
      if (end === -1) fail(i, "a comment that is never closed");
      i = end + 3;
      continue;
    }
    if (src.startsWith("<![CDATA[", i)) {
      const end = src.indexOf("]]>", i + 9);
      if (end === -1) fail(i, "a CDATA section that is never closed");
      if (!top) fail(i, "a CDATA section outside the root element");
      (top as XmlElement).text += src.slice(i + 9, end);
      i = end + 3;
      continue;
    }
    if (src.startsWith("<?", i)) {
      const end = src.indexOf("?>", i + 2);
      if (end === -1) fail(i, "a processing instruction that is never closed");
      i = end + 2;
      continue;
    }
    if (src.startsWith("<!", i)) fail(i, "a DOCTYPE or other declaration, which the list never has and this reader refuses");
    if (src.startsWith("</", i)) {
      const name = nameAt(i + 2);
      const close = /\s*>/y;
      close.lastIndex = i + 2 + name.length;
      if (!close.exec(src)) fail(i, `the end tag </${name}> is not closed with ">"`);
      if (!top) return fail(i, `the end tag </${name}> has no start tag`);
      if (top.name !== name) fail(i, `the end tag </${name}> closes <${top.name}>, opened on line ${top.line}`);
      stack.pop();
      i = close.lastIndex;
      continue;
    }
    const name = nameAt(i + 1);
    const element: XmlElement = { name, attributes: {}, children: [], text: "", line: lineOf(i) };
    let at = i + 1 + name.length;
    for (;;) {
      ATTRIBUTE.lastIndex = at;
      const m = ATTRIBUTE.exec(src);
      if (!m) break;
      const key = m[1] as string;
      if (key in element.attributes) fail(at, `the attribute ${key} appears twice on <${name}>`);
      element.attributes[key] = decode(m[2] ?? m[3] ?? "", at);
      at = ATTRIBUTE.lastIndex;
    }
    const end = /\s*(\/?)>/y;
    end.lastIndex = at;
    const closing = end.exec(src);
    if (!closing) return fail(at, `the start tag <${name}> is malformed`);
    if (top) top.children.push(element);
    else if (root) fail(i, `a second root element <${name}>`);
    else root = element;
    if (closing[1] !== "/") stack.push(element);
    i = end.lastIndex;
  }
  const open = stack[stack.length - 1];
  if (open) fail(src.length, `<${open.name}>, opened on line ${open.line}, is never closed (the file ends early)`);
  if (!root) return fail(0, "no root element");
  return root;
}

/** The children of an element named `name`. */
export const childrenNamed = (element: XmlElement, name: string) => element.children.filter((c) => c.name === name);

/** The trimmed text of the first child named `name`, or null when there is none or it is empty. */
export function childText(element: XmlElement, name: string): string | null {
  const child = element.children.find((c) => c.name === name);
  const text = child?.text.trim() ?? "";
  return text === "" ? null : text;
}
