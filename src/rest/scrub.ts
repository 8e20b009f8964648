/**
 * Keeping the client secret and access tokens out of everything the REST client lets out: server
 * text put into errors, log messages and fields. The scrubber knows the secret and the last few
 * tokens the client saw, and replaces each occurrence with `[REDACTED]`.
 *
 * @module
 */

/** What replaces a secret. */
export const REDACTED = '[REDACTED]'

/** How many tokens are remembered (older ones expired long ago). */
const TOKENS_KEPT = 8

/**
 * Optional logger; `console` works. Messages and fields never contain the secret or a token.
 * @category REST
 */
export interface Logger {
  debug?(message: string, fields?: Record<string, unknown>): void
  info?(message: string, fields?: Record<string, unknown>): void
  warn?(message: string, fields?: Record<string, unknown>): void
  error?(message: string, fields?: Record<string, unknown>): void
}

/**
 * Removes the client secret and every token it was told about from text.
 *
 * @example
 * const s = new SecretScrubber('s3cret'); s.remember(token)
 * s.scrub(`bad token ${token}`) // 'bad token [REDACTED]'
 */
export class SecretScrubber {
  readonly #secret: string
  readonly #tokens: string[] = []

  constructor(clientSecret: string) {
    this.#secret = clientSecret
  }

  /** Adds a token to scrub (the last {@link TOKENS_KEPT} are kept). */
  remember(token: string): void {
    if (this.#tokens.includes(token)) return
    this.#tokens.push(token)
    if (this.#tokens.length > TOKENS_KEPT) this.#tokens.shift()
  }

  /**
   * `text` with the secret and every remembered token replaced by {@link REDACTED}, each also in its
   * JSON-escaped spelling: a server that echoes the token request's body (JSON) in an HTML or text
   * error page writes a secret holding `"`, `\` or a control character escaped, not as it is.
   */
  scrub(text: string): string {
    let out = text
    for (const s of [this.#secret, ...this.#tokens]) {
      if (s.length === 0) continue
      out = out.split(s).join(REDACTED)
      const escaped = JSON.stringify(s).slice(1, -1)
      if (escaped !== s) out = out.split(escaped).join(REDACTED)
    }
    return out
  }

  /**
   * Calls `logger[level]` with the message and fields scrubbed (fields through JSON). A logger that
   * throws never breaks a call.
   */
  log(logger: Logger | undefined, level: keyof Logger, message: string, fields: Record<string, unknown>): void {
    const fn = logger?.[level]
    if (typeof fn !== 'function') return
    try {
      const safe = JSON.parse(this.scrub(JSON.stringify(fields))) as Record<string, unknown>
      fn.call(logger, `orbitport: ${this.scrub(message)}`, safe)
    } catch {
      // a logger must never break a call
    }
  }

  toJSON(): string {
    return REDACTED
  }
}
