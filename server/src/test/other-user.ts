import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';

/**
 * Root reads every file, so a test that needs a real EACCES runs that part in a child process as `nobody`. The child
 * can read nothing of the checkout when it lives in a private folder (a `mktemp -d` folder, anything under /root):
 * what it runs and reads must be copied to a folder every user can reach, which these helpers make.
 */
export const NOBODY = { uid: 65534, gid: 65534 };

/** The spawn options that run a child as `nobody` when we are root, and as ourselves otherwise. */
export const asNobodyWhenRoot = (): { uid?: number; gid?: number } => (process.getuid?.() === 0 ? NOBODY : {});

/** Whether a user other than the owner (and not in its group) has `bit` (4 read, 1 search/execute) on it. */
const othersMay = (stat: fs.Stats, bit: number) => (stat.mode & bit) !== 0 || (stat.uid === NOBODY.uid && (stat.mode & (bit << 6)) !== 0);

/**
 * Why `nobody` cannot reach `target` (a folder above it it may not search, or `bits` missing on it), or null when it
 * can. ACLs are not read: a folder that grants access only through one is reported as unreachable.
 */
export function whyNobodyCannotReach(target: string, bits: { read?: boolean; execute?: boolean } = {}): string | null {
  const real = fs.realpathSync(target);
  for (let folder = path.dirname(real); ; folder = path.dirname(folder)) {
    const stat = fs.statSync(folder);
    if (!othersMay(stat, 0o1)) return `${folder} (mode ${(stat.mode & 0o777).toString(8)}) may not be searched by other users`;
    if (folder === path.dirname(folder)) break;
  }
  const stat = fs.statSync(real);
  if (bits.read && !othersMay(stat, 0o4)) return `${real} (mode ${(stat.mode & 0o777).toString(8)}) may not be read by other users`;
  if (bits.execute && !othersMay(stat, 0o1))
    return `${real} (mode ${(stat.mode & 0o777).toString(8)}) may not be run or searched by other users`;
  return null;
}

/**
 * A new temporary folder (mode 755) that `nobody` can reach: under os.tmpdir() when it can be reached, else under
 * /tmp or /var/tmp (TMPDIR may point into a private folder).
 */
export function reachableTempDir(prefix: string): string {
  const bases = [...new Set([os.tmpdir(), '/tmp', '/var/tmp'])].filter((base) => fs.existsSync(base));
  const base = bases.find((candidate) => whyNobodyCannotReach(candidate, { execute: true }) === null);
  if (!base) throw new Error(`No temporary folder that other users can reach (tried ${bases.join(', ')})`);
  const dir = fs.mkdtempSync(path.join(base, prefix));
  fs.chmodSync(dir, 0o755);
  return dir;
}

/**
 * The Node.js binary for a child run as `nobody`; throws, saying why, when that user may not run it (a Node.js
 * installed under /root, say), so the test fails for that reason and not for a missing module.
 */
export function nodeForNobody(): string {
  if (process.getuid?.() !== 0) return process.execPath;
  const why = whyNobodyCannotReach(process.execPath, { execute: true });
  if (why)
    throw new Error(
      `This test runs Node.js as nobody, which cannot run ${process.execPath}: ${why}. Install Node.js where every user can run it.`,
    );
  return process.execPath;
}

/** Writes a file every user may read, whatever the umask. */
export function writeReadable(file: string, content: string | Uint8Array): void {
  fs.writeFileSync(file, content);
  fs.chmodSync(file, 0o644);
}

/**
 * Transpiles the TypeScript modules of `sourceDir` (tests left out) to JavaScript ES modules in `outDir`, files every
 * user may read, so a child run as `nobody` loads them with plain Node.js (no tsx from the checkout's node_modules).
 * The modules may import only Node.js built-ins and each other.
 */
export function transpileForNobody(sourceDir: string, outDir: string): void {
  const compilerOptions = { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, isolatedModules: true };
  for (const name of fs.readdirSync(sourceDir)) {
    if (!name.endsWith('.ts') || name.endsWith('.test.ts') || name.endsWith('.d.ts')) continue;
    const { outputText } = ts.transpileModule(fs.readFileSync(path.join(sourceDir, name), 'utf8'), { compilerOptions, fileName: name });
    writeReadable(path.join(outDir, name.replace(/\.ts$/, '.js')), outputText);
  }
  writeReadable(path.join(outDir, 'package.json'), '{ "type": "module" }\n');
}
