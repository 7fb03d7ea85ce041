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

/** A scanner over one file's text. */
class Scanner {
  at = 0;
  constructor(private readonly text: string) {}

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
    if (!IDENT_START.test(this.peek())) this.fail(`expected a name, found ${JSON.stringify(this.peek() || 'end of file')}`);
    while (!this.done && IDENT.test(this.peek())) this.at++;
    return this.text.slice(start, this.at);
  }

  /** Skips a quoted template, interpolations and nested strings included; the cursor is on its opening quote. */
  skipString(): void {
    this.at++;
    while (!this.done) {
      const c = this.peek();
      if (c === '\\') this.at += 2;
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
    while (!this.done && stack.length) {
      const c = this.peek();
      if (c === '"') this.skipString();
      else if (c === '<' && this.peek(1) === '<' && /[-A-Za-z_]/.test(this.peek(2))) this.skipHeredoc();
      else if (c === '#' || (c === '/' && (this.peek(1) === '/' || this.peek(1) === '*'))) this.skip(false);
      else {
        if (c === '{' || c === '[' || c === '(') stack.push(c === '{' ? '}' : c === '[' ? ']' : ')');
        else if (c === '}' || c === ']' || c === ')') {
          if (stack[stack.length - 1] !== c) this.fail(`unexpected ${c}`);
          stack.pop();
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
    return decodeString(this.text.slice(start, this.at)) ?? this.fail('a block label cannot hold an interpolation');
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
      blocks.push({ type: name, labels, ...this.body(true) });
    }
  }
}

/** Parses one file's text: its top-level attributes and blocks. */
export function parseHcl(text: string): Pick<HclBlock, 'attributes' | 'blocks'> {
  return new Scanner(text.replace(/^\uFEFF/, '')).body(false);
}

const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', '"': '"', '\\': '\\' };

/** The value of a quoted string literal written as `raw`, or null when it is not one (interpolations included). */
export function decodeString(raw: string): string | null {
  if (!/^"[\s\S]*"$/.test(raw) || raw.length < 2) return null;
  const body = raw.slice(1, -1);
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\') {
      const e = body[++i];
      if (e === 'u' || e === 'U') {
        const len = e === 'u' ? 4 : 8;
        out += String.fromCodePoint(parseInt(body.slice(i + 1, i + 1 + len), 16));
        i += len;
      } else out += ESCAPES[e] ?? e;
    } else if ((c === '$' || c === '%') && body[i + 1] === '{') return null;
    else if ((c === '$' || c === '%') && body[i + 1] === c && body[i + 2] === '{') {
      out += `${c}{`;
      i += 2;
    } else out += c;
  }
  return out;
}

/** The text of a heredoc written as `raw` (indentation removed for `<<-`), or null when it is not one. */
function decodeHeredoc(raw: string): string | null {
  const match = /^<<(-?)([A-Za-z_][A-Za-z0-9_-]*)[ \t]*\r?\n([\s\S]*?)\r?\n[ \t]*\2$/.exec(raw);
  if (!match) return null;
  const lines = match[3].split('\n');
  if (!match[1]) return `${match[3]}\n`;
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => /^[ \t]*/.exec(l)![0].length));
  return `${lines.map((l) => l.slice(Number.isFinite(indent) ? indent : 0)).join('\n')}\n`;
}

/** A description's text: a string literal or heredoc decoded, anything else as written. */
const textOf = (raw: string | undefined): string => (raw === undefined ? '' : (decodeString(raw) ?? decodeHeredoc(raw) ?? raw));

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

/** Reads one module directory from its `.tf` files (name -> text) and README. */
export function inspectModule(path: string, files: Record<string, string>, readme = ''): ModuleDetails {
  const details: ModuleDetails = { path, readme, empty: Object.keys(files).length === 0, inputs: [], outputs: [], dependencies: [], resources: [] };
  for (const name of Object.keys(files).sort()) {
    let parsed: Pick<HclBlock, 'blocks'>;
    try {
      parsed = parseHcl(files[name]);
    } catch (err) {
      if (err instanceof HclSyntaxError) throw new HclSyntaxError(`${path ? `${path}/` : ''}${name}: ${err.message}`);
      throw err;
    }
    for (const b of parsed.blocks) {
      const a = b.attributes;
      if (b.type === 'variable' && b.labels.length === 1) {
        details.inputs.push({
          name: b.labels[0],
          type: a.type ?? '',
          description: textOf(a.description),
          default: a.default ?? '',
          required: a.default === undefined,
          sensitive: isTrue(a.sensitive),
        });
      } else if (b.type === 'output' && b.labels.length === 1) {
        details.outputs.push({ name: b.labels[0], description: textOf(a.description), sensitive: isTrue(a.sensitive) });
      } else if (b.type === 'resource' && b.labels.length === 2) {
        details.resources.push({ type: b.labels[0], name: b.labels[1] });
      } else if (b.type === 'module' && b.labels.length === 1) {
        details.dependencies.push({ name: b.labels[0], source: textOf(a.source), version: textOf(a.version) });
      }
    }
  }
  return details;
}

/** The root module and submodules (`modules/<name>/`) of an archive, from its files (path -> text). */
export function inspectArchiveFiles(texts: ReadonlyMap<string, string>): { root: ModuleDetails; submodules: ModuleDetails[] } {
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
    else if (/^readme(\.md)?$/i.test(match[2])) entry.readme = text;
  }
  const details = [...dirs.entries()].sort(([x], [y]) => (x < y ? -1 : 1)).map(([dir, d]) => inspectModule(dir, d.tf, d.readme));
  return { root: details[0], submodules: details.slice(1) };
}

/** Files an archive inspection keeps the text of: `.tf` files and READMEs of the root and of `modules/<name>/`. */
export const isModuleFile = (path: string): boolean => /^(modules\/[^/]+\/)?([^/]+\.tf|readme(\.md)?)$/i.test(path);
