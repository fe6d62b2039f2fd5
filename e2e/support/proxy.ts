import http from 'node:http';
import net from 'node:net';

export interface ReverseProxy {
  /** The proxy's origin, e.g. `http://127.0.0.1:40123`; the server is under `${origin}${prefix}`. */
  origin: string;
  /** Paths the browser asked for outside the prefix (the proxy answered 404): should stay empty. */
  outside: string[];
  /** Every path forwarded, WebSocket upgrades marked `WS `. */
  forwarded: string[];
  close: () => Promise<void>;
}

/**
 * A reverse proxy on loopback, configured as the README's nginx example: `location /shoko/` passes requests on
 * unchanged (path included) to the server, WebSocket upgrades too, with X-Forwarded-For/-Proto/-Host; every other
 * path is 404 here, so a console that forgets the prefix shows up in `outside`.
 */
export async function startReverseProxy(options: { prefix: string; upstream: { host: string; port: number } }): Promise<ReverseProxy> {
  const { prefix, upstream } = options;
  const outside: string[] = [];
  const forwarded: string[] = [];
  const underPrefix = (url: string) => url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`);
  const forwardedHeaders = (request: http.IncomingMessage) => ({
    'x-forwarded-for': request.socket.remoteAddress ?? '',
    'x-forwarded-proto': 'http',
    'x-forwarded-host': request.headers.host ?? '',
  });

  const server = http.createServer((request, response) => {
    const url = request.url ?? '/';
    if (!underPrefix(url)) {
      outside.push(`${request.method} ${url}`);
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not proxied');
      return;
    }
    forwarded.push(`${request.method} ${url}`);
    const upstreamRequest = http.request(
      { ...upstream, method: request.method, path: url, headers: { ...request.headers, ...forwardedHeaders(request) } },
      (upstreamResponse) => {
        response.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.headers);
        upstreamResponse.pipe(response);
      },
    );
    upstreamRequest.on('error', () => response.destroy());
    request.pipe(upstreamRequest);
  });

  server.on('upgrade', (request: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    const url = request.url ?? '/';
    if (!underPrefix(url)) {
      outside.push(`WS ${url}`);
      socket.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    forwarded.push(`WS ${url}`);
    const upstreamSocket = net.connect(upstream.port, upstream.host, () => {
      const headers: string[] = [];
      for (let i = 0; i < request.rawHeaders.length; i += 2) headers.push(`${request.rawHeaders[i]}: ${request.rawHeaders[i + 1]}`);
      for (const [name, value] of Object.entries(forwardedHeaders(request))) headers.push(`${name}: ${value}`);
      upstreamSocket.write(`${request.method} ${url} HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n`);
      if (head.length) upstreamSocket.write(head);
      socket.pipe(upstreamSocket).pipe(socket);
    });
    const closeBoth = () => {
      socket.destroy();
      upstreamSocket.destroy();
    };
    upstreamSocket.on('error', closeBoth);
    socket.on('error', closeBoth);
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    outside,
    forwarded,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
