/**
 * Typed errors. Every error orbitdraw throws is an {@link OrbitdrawError} with a stable
 * machine-readable `code`, a message that says what was wrong, and a `hint` that says what to do.
 *
 * @module
 */
import type { IntegrityErrorCode, InvalidInputErrorCode, LimitExceededErrorCode, MismatchErrorCode, ParseErrorCode, UnsupportedVersionErrorCode } from './error-codes.js'

/**
 * Options accepted by every orbitdraw error constructor.
 * @category Errors
 */
export interface OrbitdrawErrorOptions {
  /** The underlying error, if any. */
  cause?: unknown
  /** JSON path of the offending field (for example `$.data.ctrng[2]`), when there is one. */
  path?: string
}

/**
 * Base class of every error orbitdraw throws.
 *
 * `message` is `what was wrong — what to do`; the two halves are also available separately as
 * {@link OrbitdrawError.detail} and {@link OrbitdrawError.hint}. `code` is stable across releases.
 * @typeParam C - the codes of the class: each subclass fixes its union (for example
 *   {@link InvalidInputErrorCode}); `string` for the base class.
 * @category Errors
 */
export class OrbitdrawError<C extends string = string> extends Error {
  // Each error class of the library states its own name (what `new.target.name` below reads), as
  // `class` would set it: a minified bundle renames classes (the CLI's verify bundle is built without
  // esbuild's `keepNames`, docs/performance.md, Start-up). A subclass of a user's keeps its own name.
  static {
    Object.defineProperty(this, 'name', { value: 'OrbitdrawError' })
  }

  /** Stable machine-readable code, for example `BLOCK_CID_MISMATCH`. */
  readonly code: C
  /** What was wrong, without the hint. */
  readonly detail: string
  /** What to do about it. */
  readonly hint: string
  /** JSON path of the offending field, when the error is about one field. */
  readonly path: string | undefined

  constructor(code: C, detail: string, hint: string, options: OrbitdrawErrorOptions = {}) {
    const where = options.path === undefined ? '' : ` at ${options.path}`
    super(`${detail}${where} — ${hint}`, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = new.target.name
    this.code = code
    this.detail = detail
    this.hint = hint
    this.path = options.path
  }

  /** A plain-object form safe to log or serialize (no cause chain, no secrets). */
  toJSON(): { name: string; code: string; message: string; hint: string; path?: string } {
    const out: { name: string; code: string; message: string; hint: string; path?: string } = {
      name: this.name,
      code: this.code,
      message: this.message,
      hint: this.hint,
    }
    if (this.path !== undefined) out.path = this.path
    return out
  }
}

/**
 * A caller passed an invalid argument (wrong type, out of range, inconsistent options).
 * @category Errors
 */
export class InvalidInputError extends OrbitdrawError<InvalidInputErrorCode> {
  static {
    Object.defineProperty(this, 'name', { value: 'InvalidInputError' })
  }
}

/**
 * Untrusted data (a block, a commitment, a proof, a server response) failed validation.
 * @category Errors
 */
export class ParseError extends OrbitdrawError<ParseErrorCode> {
  static {
    Object.defineProperty(this, 'name', { value: 'ParseError' })
  }
}

/**
 * Bytes do not match the content address or hash that is supposed to identify them.
 * @category Errors
 */
export class IntegrityError extends OrbitdrawError<IntegrityErrorCode> {
  static {
    Object.defineProperty(this, 'name', { value: 'IntegrityError' })
  }
}

/**
 * Data is well-formed but does not match what was committed (wrong block, wrong participants...).
 * @category Errors
 */
export class MismatchError extends OrbitdrawError<MismatchErrorCode> {
  static {
    Object.defineProperty(this, 'name', { value: 'MismatchError' })
  }
}

/**
 * A documented resource limit was exceeded; raised before work proportional to the input is done.
 * @category Errors
 */
export class LimitExceededError extends OrbitdrawError<LimitExceededErrorCode> {
  static {
    Object.defineProperty(this, 'name', { value: 'LimitExceededError' })
  }
}

/**
 * A commitment or proof names a protocol version this release does not implement.
 * @category Errors
 */
export class UnsupportedVersionError extends OrbitdrawError<UnsupportedVersionErrorCode> {
  static {
    Object.defineProperty(this, 'name', { value: 'UnsupportedVersionError' })
  }
}
