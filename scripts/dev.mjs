// `npm run dev`: the server with reload on change (tsx watch) and the console through Vite's hot-reloading dev server.
import { spawn } from 'node:child_process';
import { buildIfStale, ensureInstalled, root } from './lib.mjs';

ensureInstalled();
buildIfStale('packages/contract', ['packages/contract/src'], 'dist/index.js');
const port = process.env.SHOKO_PORT ?? '8111';
const children = [
  spawn('npm', ['run', 'dev', '-w', 'server'], { stdio: 'inherit', cwd: root, env: { ...process.env, SHOKO_PORT: port } }),
  spawn('npm', ['run', 'dev', '-w', 'web'], { stdio: 'inherit', cwd: root, env: { ...process.env, SHOKO_PORT: port } }),
];
console.log(`Console with hot reload: http://localhost:5173/webui (API on port ${port})`);
const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
await Promise.all(children.map((c) => new Promise((r) => c.on('exit', r))));
