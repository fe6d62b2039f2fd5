/// <reference types="node" />
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// WEB_DIST: a build elsewhere (vite build --outDir); else web/dist, which `npm test` builds first.
const dist = process.env.WEB_DIST ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'dist');

interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
}

const readManifest = () => JSON.parse(fs.readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;

/** The chunks the dashboard route loads beside the entry: the layout's and the page's, with their static imports. */
function dashboardChunks(manifest: Record<string, ManifestChunk>): ManifestChunk[] {
  const chunks = new Map<string, ManifestChunk>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || key === 'index.html' || chunks.has(chunk.file)) return;
    chunks.set(chunk.file, chunk);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of ['src/app/layout/MainLayout.tsx', 'src/pages/dashboard/DashboardPage.tsx']) visit(key);
  return [...chunks.values()];
}

describe.skipIf(!fs.existsSync(path.join(dist, '.vite', 'manifest.json')))('the dashboard route in the build', () => {
  it("finds the loader's prefetch in a chunk the route already loads (not a script of its own asked for afterwards)", () => {
    const manifest = readManifest();
    const files = dashboardChunks(manifest).map((chunk) => chunk.file);
    expect(files.some((file) => /DashboardPage/.test(file))).toBe(true);
    const ownChunk = manifest['src/pages/dashboard/prefetch.ts'];
    if (ownChunk) expect(files).toContain(ownChunk.file);
  });

  it('gives the page no stylesheet of its own, which its code would wait for', () => {
    const withCss = dashboardChunks(readManifest()).filter((chunk) => chunk.css?.length);
    expect(withCss.map((chunk) => chunk.css)).toEqual([]);
  });
});
