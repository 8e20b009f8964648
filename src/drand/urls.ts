/**
 * drand's public relays: a constant of its own, so that naming it (the CLI's help) loads no drand code.
 *
 * @module
 */

/**
 * drand's public relays, as drand lists them.
 * @category Drand
 */
export const DEFAULT_DRAND_URLS: readonly string[] = ['https://api.drand.sh', 'https://api2.drand.sh', 'https://api3.drand.sh', 'https://drand.cloudflare.com']
