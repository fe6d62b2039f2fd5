/** A download that failed: unreachable host, HTTP error, wrong content type, too large, too slow. */
export class DownloadError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface DownloadOptions {
  /** Accepted media types (without parameters); any type when omitted. */
  accept?: string[];
  maxBytes: number;
  timeoutMs?: number;
  headers?: Record<string, string>;
}

/** GETs `url` and returns its body, refusing bodies over `maxBytes` without reading them whole. */
export async function download(url: string, options: DownloadOptions): Promise<{ body: Buffer; contentType: string }> {
  let response: Response;
  try {
    response = await fetch(url, { headers: options.headers, redirect: 'follow', signal: AbortSignal.timeout(options.timeoutMs ?? 15_000) });
  } catch (error) {
    throw new DownloadError(
      `Unable to download ${url}: ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)}`,
    );
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new DownloadError(`Unable to download ${url}: HTTP ${response.status}`, response.status);
  }
  const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (options.accept && !options.accept.includes(contentType)) {
    await response.body?.cancel().catch(() => undefined);
    throw new DownloadError(`Unable to download ${url}: unexpected content type "${contentType || 'none'}".`);
  }
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > options.maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new DownloadError(`Unable to download ${url}: the file is larger than ${options.maxBytes} bytes.`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body ?? []) {
      size += chunk.byteLength;
      if (size > options.maxBytes) throw new DownloadError(`Unable to download ${url}: the file is larger than ${options.maxBytes} bytes.`);
      chunks.push(Buffer.from(chunk));
    }
  } catch (error) {
    if (error instanceof DownloadError) throw error;
    throw new DownloadError(`Unable to download ${url}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return { body: Buffer.concat(chunks), contentType };
}
