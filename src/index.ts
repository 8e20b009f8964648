/**
 * orbitdraw: publicly verifiable draws from Orbitport's cosmic randomness beacon.
 *
 * - {@link commit} fixes a draw before its randomness exists;
 * - {@link drawFromBlock} derives the outcome from the committed block and returns a proof;
 * - {@link verify} re-checks a proof offline, naming every failed check.
 *
 * @module
 */
export * from './core/index.js'
