/**
 * Enough of HCL's native syntax to read what a module registry shows of a module: its variable,
 * output, resource and module blocks. Expressions are kept as the text they were written as
 * (a default of `"eu-west-1"` stays that text, as the public registry shows it); only string
 * literals and heredocs used as descriptions are decoded. Pure: no I/O.
 */

/** One block: its type, labels, attributes (name -> expression text) and nested blocks. */
export interface HclBlock {
  type: string;
  labels: string[];
  attributes: Record<string, string>;
  blocks: HclBlock[];
}

export class HclSyntaxError extends Error {}

const IDENT_START = /[A-Za-z_]/;
const IDENT = /[A-Za-z0-9_-]/;

/**
 * How deeply blocks, brackets and interpolations may nest in one file. Real modules stay far
 * below it; past it the file is refused rather than read with a stack as deep as the file is long.
 */
export const MAX_NESTING = 100;

/**
 * The character a `\u` (4 hex digits) or `\U` (8 hex digits) escape names, or null when `hex` is
 * not that many hex digits or names no character UTF-8 can encode (past U+10FFFF, or a surrogate),
 * which Terraform refuses too.
 */
function escapedCodePoint(hex: string, digits: number): number | null {
  if (hex.length !== digits || !/^[0-9A-Fa-f]+$/.test(hex)) return null;
  const code = parseInt(hex, 16);
  return code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) ? null : code;
}

/** A scanner over one file's text. */
class Scanner {
  at = 0;
  /** Blocks, brackets and interpolations open at the cursor. */
  private depth = 0;
  constructor(private readonly text: string) {}

  /** Opens one more level of nesting; refuses the file past MAX_NESTING. */
  private enter(): void {
    if (++this.depth > MAX_NESTING) this.fail(`nesting deeper than ${MAX_NESTING} levels`);
  }

  private leave(): void {
    this.depth--;
  }

  /** Refuses a file holding the NUL character (the database cannot store it, and no HCL needs it). */
  refuseNul(): void {
    const at = this.text.indexOf('\0');
    if (at < 0) return;
    this.at = at;
    this.fail('a NUL character');
  }

  get done(): boolean {
    return this.at >= this.text.length;
  }

  peek(offset = 0): string {
    return this.text[this.at + offset] ?? '';
  }

  fail(what: string): never {
    const line = this.text.slice(0, this.at).split('\n').length;
    throw new HclSyntaxError(`${what} on line ${line}`);
  }

  /** Skips spaces and comments; newlines too unless `stopAtNewline`. */
  skip(stopAtNewline: boolean): void {
    while (!this.done) {
      const c = this.peek();
      if (c === '\n' && stopAtNewline) return;
      if (c === ' ' || c === '\t' || c === '\r' || c === '\n') this.at++;
      else if (c === '#' || (c === '/' && this.peek(1) === '/')) this.skipLineComment();
      else if (c === '/' && this.peek(1) === '*') this.skipBlockComment();
      else return;
    }
  }

  private skipLineComment(): void {
    const end = this.text.indexOf('\n', this.at);
    this.at = end < 0 ? this.text.length : end;
  }

  private skipBlockComment(): void {
    const end = this.text.indexOf('*/', this.at + 2);
    if (end < 0) this.fail('unterminated comment');
    this.at = end + 2;
  }

  identifier(): string {
    const start = this.at;
    if (!IDENT_START.test(this.peek()))
      this.fail(`expected a name, found ${JSON.stringify(this.peek() || 'end of file')}`);
    while (!this.done && IDENT.test(this.peek())) this.at++;
    return this.text.slice(start, this.at);
  }

  /** Skips a quoted template, interpolations and nested strings included; the cursor is on its opening quote. */
  skipString(): void {
    this.at++;
    while (!this.done) {
      const c = this.peek();
      if (c === '\\') this.escape();
      else if (c === '"') {
        this.at++;
        return;
      } else if ((c === '$' || c === '%') && this.peek(1) === '{') {
        this.at += 2;
        this.skipUntilClose('}');
      } else if (c === '\n') this.fail('unterminated string');
      else this.at++;
    }
    this.fail('unterminated string');
  }

  /** Skips one escape sequence in a quoted template, refusing a `\\u`/`\\U` one that names no character; the cursor is on the backslash. */
  private escape(): void {
    const e = this.peek(1);
    if (e !== 'u' && e !== 'U') {
      this.at += 2;
      return;
    }
    const digits = e === 'u' ? 4 : 8;
    const hex = this.text.slice(this.at + 2, this.at + 2 + digits);
    if (escapedCodePoint(hex, digits) === null)
      this.fail(`invalid escape sequence \\${e}${JSON.stringify(hex).slice(1, -1)}`);
    this.at += 2 + digits;
  }

  /** Skips a heredoc; the cursor is on `<<`. */
  skipHeredoc(): void {
    const match = /^<<-?([A-Za-z_][A-Za-z0-9_-]*)[ \t]*\r?\n/.exec(this.text.slice(this.at, this.at + 200));
    if (!match) this.fail('malformed heredoc');
    this.at += match[0].length;
    for (;;) {
      const end = this.text.indexOf('\n', this.at);
      const line = this.text.slice(this.at, end < 0 ? this.text.length : end);
      this.at = end < 0 ? this.text.length : end + 1;
      if (line.trim() === match[1]) return;
      if (end < 0) this.fail('unterminated heredoc');
    }
  }

  /** Skips bracketed content up to and past the `close` that matches the one already opened. */
  skipUntilClose(close: string): void {
    const stack = [close];
    this.enter();
    while (!this.done && stack.length) {
      const c = this.peek();
      if (c === '"') this.skipString();
      else if (c === '<' && this.peek(1) === '<' && /[-A-Za-z_]/.test(this.peek(2))) this.skipHeredoc();
      else if (c === '#' || (c === '/' && (this.peek(1) === '/' || this.peek(1) === '*'))) this.skip(false);
      else {
        if (c === '{' || c === '[' || c === '(') {
          this.enter();
          stack.push(c === '{' ? '}' : c === '[' ? ']' : ')');
        } else if (c === '}' || c === ']' || c === ')') {
          if (stack[stack.length - 1] !== c) this.fail(`unexpected ${c}`);
          stack.pop();
          this.leave();
        }
        this.at++;
      }
    }
    if (stack.length) this.fail(`missing ${stack[stack.length - 1]}`);
  }

  /** An attribute's expression: up to the end of its line (or its block's `}` on the same line), as written. */
  expression(): string {
    const start = this.at;
    let end = this.at;
    while (!this.done) {
      const c = this.peek();
      if (c === '\n' || c === '}' || c === '#' || (c === '/' && (this.peek(1) === '/' || this.peek(1) === '*'))) break;
      if (c === '"') this.skipString();
      else if (c === '<' && this.peek(1) === '<' && /[-A-Za-z_]/.test(this.peek(2))) this.skipHeredoc();
      else if (c === '{' || c === '[' || c === '(') {
        this.at++;
        this.skipUntilClose(c === '{' ? '}' : c === '[' ? ']' : ')');
      } else this.at++;
      end = this.at;
    }
    const text = this.text.slice(start, end).trim();
    if (!text) this.fail('expected an expression');
    return text;
  }

  /** A block label: a quoted string without interpolation, or a name. */
  label(): string {
    if (this.peek() !== '"') return this.identifier();
    const start = this.at;
    this.skipString();
    const label =
      decodeString(this.text.slice(start, this.at)) ?? this.fail('a block label cannot hold an interpolation');
    if (label.includes('\0')) this.fail('a block label cannot hold a NUL character');
    return label;
  }

  /** A body's attributes and blocks, up to `}` (when nested) or the end of the file. */
  body(nested: boolean): Pick<HclBlock, 'attributes' | 'blocks'> {
    const attributes: Record<string, string> = {};
    const blocks: HclBlock[] = [];
    for (;;) {
      this.skip(false);
      if (this.done) {
        if (nested) this.fail('missing }');
        return { attributes, blocks };
      }
      if (this.peek() === '}') {
        if (!nested) this.fail('unexpected }');
        this.at++;
        return { attributes, blocks };
      }
      const name = this.identifier();
      this.skip(true);
      if (this.peek() === '=' && this.peek(1) !== '=') {
        this.at++;
        this.skip(true);
        attributes[name] = this.expression();
        continue;
      }
      const labels: string[] = [];
      while (this.peek() !== '{') {
        if (this.done || this.peek() === '\n') this.fail(`expected { or = after ${name}`);
        labels.push(this.label());
        this.skip(true);
      }
      this.at++;
      this.enter();
      blocks.push({ type: name, labels, ...this.body(true) });
      this.leave();
    }
  }
}

/** Parses one file's text: its top-level attributes and blocks. */
export function parseHcl(text: string): Pick<HclBlock, 'attributes' | 'blocks'> {
  const scanner = new Scanner(text.replace(/^\uFEFF/, ''));
  scanner.refuseNul();
  return scanner.body(false);
}

const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', '"': '"', '\\': '\\' };

/**
 * The value of a quoted string literal written as `raw`, or null when it is not one (an
 * interpolation, more than one literal, an escape naming no character). Decodes by slices
 * between escapes, so a long literal costs one pass.
 */
export function decodeString(raw: string): string | null {
  if (raw.length < 2 || raw[0] !== '"' || raw[raw.length - 1] !== '"') return null;
  const end = raw.length - 1;
  const parts: string[] = [];
  let from = 1;
  for (let i = 1; i < end; i++) {
    const c = raw[i];
    if (c === '"') return null;
    if (c !== '\\' && c !== '$' && c !== '%') continue;
    if (c !== '\\') {
      if (raw[i + 1] === '{') return null;
      if (raw[i + 1] !== c || raw[i + 2] !== '{') continue;
      // `$${` and `%%{` stand for `${` and `%{`.
      parts.push(raw.slice(from, i + 1), '{');
      i += 2;
      from = i + 1;
      continue;
    }
    parts.push(raw.slice(from, i));
    const e = raw[i + 1];
    if (i + 1 >= end) return null;
    if (e === 'u' || e === 'U') {
      const digits = e === 'u' ? 4 : 8;
      const code = i + 1 + digits < end ? escapedCodePoint(raw.slice(i + 2, i + 2 + digits), digits) : null;
      if (code === null) return null;
      parts.push(String.fromCodePoint(code));
      i += 1 + digits;
    } else {
      parts.push(ESCAPES[e] ?? e);
      i += 1;
    }
    from = i + 1;
  }
  parts.push(raw.slice(from, end));
  return parts.join('');
}

/** The text of a heredoc written as `raw` (indentation removed for `<<-`), or null when it is not one. */
function decodeHeredoc(raw: string): string | null {
  const match = /^<<(-?)([A-Za-z_][A-Za-z0-9_-]*)[ \t]*\r?\n([\s\S]*?)\r?\n[ \t]*\2$/.exec(raw);
  if (!match) return null;
  if (!match[1]) return `${match[3]}\n`;
  const lines = match[3].split('\n');
  // A loop, not Math.min(...): a heredoc may have more lines than a call may have arguments.
  let indent = Number.POSITIVE_INFINITY;
  for (const l of lines) if (l.trim()) indent = Math.min(indent, /^[ \t]*/.exec(l)![0].length);
  return `${lines.map((l) => l.slice(Number.isFinite(indent) ? indent : 0)).join('\n')}\n`;
}

/**
 * A description's text: a string literal or heredoc decoded, anything else as written. `what`
 * names it when it decodes to a NUL character (written `\\u0000`), which the database cannot store.
 */
function textOf(raw: string | undefined, what: string): string {
  const text = raw === undefined ? '' : (decodeString(raw) ?? decodeHeredoc(raw) ?? raw);
  if (text.includes('\0')) throw new HclSyntaxError(`${what} holds a NUL character`);
  return text;
}

export interface ModuleInput {
  name: string;
  type: string;
  description: string;
  default: string;
  required: boolean;
  sensitive: boolean;
}

export interface ModuleOutput {
  name: string;
  description: string;
  sensitive: boolean;
}

export interface ModuleResource {
  name: string;
  type: string;
}

export interface ModuleDependency {
  name: string;
  source: string;
  version: string;
}

/** What the registry shows of one module directory (the root or a submodule). */
export interface ModuleDetails {
  path: string;
  readme: string;
  empty: boolean;
  inputs: ModuleInput[];
  outputs: ModuleOutput[];
  dependencies: ModuleDependency[];
  resources: ModuleResource[];
}

const isTrue = (raw: string | undefined) => raw === 'true';

/** Adds what one parsed file declares to `details`. */
function readFile(details: ModuleDetails, parsed: Pick<HclBlock, 'blocks'>): void {
  for (const b of parsed.blocks) {
    const a = b.attributes;
    const what = `${b.type} ${JSON.stringify(b.labels[0])}`;
    if (b.type === 'variable' && b.labels.length === 1) {
      details.inputs.push({
        name: b.labels[0],
        type: a.type ?? '',
        description: textOf(a.description, `${what}: its description`),
        default: a.default ?? '',
        required: a.default === undefined,
        sensitive: isTrue(a.sensitive),
      });
    } else if (b.type === 'output' && b.labels.length === 1) {
      details.outputs.push({
        name: b.labels[0],
        description: textOf(a.description, `${what}: its description`),
        sensitive: isTrue(a.sensitive),
      });
    } else if (b.type === 'resource' && b.labels.length === 2) {
      details.resources.push({ type: b.labels[0], name: b.labels[1] });
    } else if (b.type === 'module' && b.labels.length === 1) {
      details.dependencies.push({
        name: b.labels[0],
        source: textOf(a.source, `${what}: its source`),
        version: textOf(a.version, `${what}: its version`),
      });
    }
  }
}

/** Reads one module directory from its `.tf` files (name -> text) and README. */
export function inspectModule(path: string, files: Record<string, string>, readme = ''): ModuleDetails {
  const details: ModuleDetails = {
    path,
    readme,
    empty: Object.keys(files).length === 0,
    inputs: [],
    outputs: [],
    dependencies: [],
    resources: [],
  };
  for (const name of Object.keys(files).sort()) {
    try {
      readFile(details, parseHcl(files[name]));
    } catch (err) {
      if (err instanceof HclSyntaxError) throw new HclSyntaxError(`${path ? `${path}/` : ''}${name}: ${err.message}`);
      throw err;
    }
  }
  return details;
}

/** The root module and submodules (`modules/<name>/`) of an archive, from its files (path -> text). */
export function inspectArchiveFiles(texts: ReadonlyMap<string, string>): {
  root: ModuleDetails;
  submodules: ModuleDetails[];
} {
  const dirs = new Map<string, { tf: Record<string, string>; readme: string }>();
  const dirOf = (d: string) => {
    let entry = dirs.get(d);
    if (!entry) dirs.set(d, (entry = { tf: {}, readme: '' }));
    return entry;
  };
  dirOf('');
  for (const [file, text] of texts) {
    const match = /^(?:(modules\/[^/]+)\/)?([^/]+)$/.exec(file);
    if (!match) continue;
    const entry = dirOf(match[1] ?? '');
    if (match[2].endsWith('.tf')) entry.tf[match[2]] = text;
    // Shown as text; the database cannot store a NUL character, and a README needs none.
    else if (/^readme(\.md)?$/i.test(match[2])) entry.readme = text.replaceAll('\0', '');
  }
  const details = [...dirs.entries()]
    .sort(([x], [y]) => (x < y ? -1 : 1))
    .map(([dir, d]) => inspectModule(dir, d.tf, d.readme));
  return { root: details[0], submodules: details.slice(1) };
}

/**
 * Which files an archive inspection keeps the text of: the `.tf` files of the root and of
 * `modules/<name>/` (needed whole: a module read without one of them would miss what it declares)
 * and their READMEs (shown when they fit).
 */
export function moduleFileKind(path: string): 'tf' | 'readme' | null {
  if (/^(modules\/[^/]+\/)?[^/]+\.tf$/.test(path)) return 'tf';
  return /^(modules\/[^/]+\/)?readme(\.md)?$/i.test(path) ? 'readme' : null;
}

export const isModuleFile = (path: string): boolean => moduleFileKind(path) !== null;
