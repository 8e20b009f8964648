/**
 * Access-token storage. The client keeps tokens in a {@link TokenStore}; the default
 * {@link MemoryTokenStore} lives in the process. Apps with several processes can share tokens by
 * implementing the interface over their own store (Redis, a database...), so they do not each fetch
 * one. A stored token is a credential: keep the store private.
 *
 * @module
 */

/**
 * A cached access token.
 * @category REST
 */
export interface StoredToken {
  /** The bearer token: an RFC 6750 `b64token` of at least 22 characters. Secret. */
  readonly accessToken: string
  /** When it was obtained, ms since the epoch (client clock, taken before the token request). */
  readonly obtainedAt: number
  /**
   * When the cache stops using it, ms since the epoch: `obtainedAt + expires_in * 1000`, but at most 24
   * hours after `obtainedAt` (the cache's longest lifetime, whatever `expires_in` says; 1e308 is not
   * for ever). Refreshed `refreshBufferSeconds` before it (at most half the lifetime).
   */
  readonly expiresAt: number
}

/**
 * Where the client caches tokens. Methods may be synchronous or return promises. `key` identifies
 * the credentials (auth URL, client id and audience; never the secret). A token that lives less than
 * 1 second is never `set`: it serves the requests waiting for it, and the next call fetches its own. A
 * token `get` returns is used only when the client would accept it from the token endpoint (at least
 * 22 `b64token` characters) and within 24 hours of `obtainedAt`; otherwise a new one is fetched.
 * @category REST
 */
export interface TokenStore {
  get(key: string): StoredToken | undefined | Promise<StoredToken | undefined>
  set(key: string, token: StoredToken): void | Promise<void>
  delete(key: string): void | Promise<void>
}

const INSPECT = Symbol.for('nodejs.util.inspect.custom')

/**
 * The default in-process token store. Its contents never show in `JSON.stringify` or `util.inspect`.
 * @category REST
 */
export class MemoryTokenStore implements TokenStore {
  readonly #tokens = new Map<string, StoredToken>()

  get(key: string): StoredToken | undefined {
    return this.#tokens.get(key)
  }

  set(key: string, token: StoredToken): void {
    this.#tokens.set(key, { accessToken: token.accessToken, obtainedAt: token.obtainedAt, expiresAt: token.expiresAt })
  }

  delete(key: string): void {
    this.#tokens.delete(key)
  }

  /** Number of cached tokens. */
  get size(): number {
    return this.#tokens.size
  }

  toJSON(): { tokens: number } {
    return { tokens: this.#tokens.size }
  }

  toString(): string {
    return `MemoryTokenStore { tokens: ${this.#tokens.size} }`
  }

  [INSPECT](): string {
    return this.toString()
  }
}
