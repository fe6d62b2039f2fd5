/// <reference types="node" />
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

describe('console start-up order', () => {
  it('runs the gate requests before any module that creates the router', () => {
    const main = fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'main.tsx'), 'utf8');
    const imports = [...main.matchAll(/^import\s+(?:[^'"]*from\s+)?['"]([^'"]+)['"]/gm)].map((m) => m[1]);
    expect(imports[0]).toBe('./app/startup');
    expect(imports.indexOf('./app/App')).toBeGreaterThan(0);
  });
});
