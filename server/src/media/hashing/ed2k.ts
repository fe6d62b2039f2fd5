/** ED2K hashes the file in chunks of this many bytes. */
export const ED2K_CHUNK_SIZE = 9_728_000;

/** An incremental hash whose digest() also resets it, so one instance can hash many chunks in turn. */
export interface ResettableHash {
  update(data: Uint8Array): void;
  digest(): Uint8Array;
}

export interface Ed2kDigest {
  ED2K: Uint8Array;
  ED2KAlternate: Uint8Array | null;
}

/**
 * ED2K: MD4 of each 9,728,000-byte chunk; a file of one chunk or less is just the MD4 of its data, a longer one the
 * MD4 of its chunk digests. Clients disagree on non-zero exact multiples of the chunk size: some append the digest of
 * an empty trailing chunk. Both variants come out of one pass, because which one a database holds depends on the
 * client that hashed the file.
 */
export class Ed2kHasher {
  private readonly chunkDigests: Uint8Array[] = [];
  private bytesInChunk = 0;

  constructor(private readonly md4: ResettableHash) {}

  update(data: Uint8Array): void {
    let offset = 0;
    while (offset < data.length) {
      const take = Math.min(ED2K_CHUNK_SIZE - this.bytesInChunk, data.length - offset);
      this.md4.update(data.subarray(offset, offset + take));
      this.bytesInChunk += take;
      offset += take;
      if (this.bytesInChunk === ED2K_CHUNK_SIZE) {
        this.chunkDigests.push(this.md4.digest());
        this.bytesInChunk = 0;
      }
    }
  }

  digest(): Ed2kDigest {
    const digests = this.chunkDigests;
    if (digests.length === 0) return { ED2K: this.md4.digest(), ED2KAlternate: null };
    if (this.bytesInChunk > 0) {
      digests.push(this.md4.digest());
      return { ED2K: this.md4OfAll(digests), ED2KAlternate: null };
    }
    const emptyChunk = this.md4.digest();
    const ED2K = digests.length === 1 ? digests[0] : this.md4OfAll(digests);
    return { ED2K, ED2KAlternate: this.md4OfAll([...digests, emptyChunk]) };
  }

  private md4OfAll(parts: Uint8Array[]): Uint8Array {
    for (const part of parts) this.md4.update(part);
    return this.md4.digest();
  }
}
