/**
 * The verifier page's trust settings panel: the link's settings, the panel read and filled, and the
 * policy in force shown under it.
 *
 * @module
 */
import { drandInfoJson } from '../core/drand/chain.js'
import { OrbitdrawError } from '../core/errors.js'
import { LIMITS } from '../core/limits.js'
import { $, t, untrusted } from './page-dom.js'
import { customSettings, parseBeaconLines, parseDrandChainText, parsePemCertificates, settingsFromQuery, type TrustSettings } from './settings.js'

/** The settings the page's link gave, and the notices about parameters it ignored. */
export const fromLink = settingsFromQuery(new URLSearchParams(location.search))

export function errorText(err: unknown): string {
  return err instanceof OrbitdrawError ? `${err.detail}. ${err.hint}` : err instanceof Error ? err.message : String(err)
}

/** Reads the panel. @throws OrbitdrawError naming the bad field. */
export function readPanel(): TrustSettings {
  const pin = $<HTMLInputElement>('pin').value.trim()
  if (pin !== '' && (pin.length > LIMITS.maxCidChars || !/^[A-Za-z0-9]+$/.test(pin))) throw new OrbitdrawError('INVALID_COMMITMENT_PIN', 'the pinned commitment CID is not a CID', 'paste the CID exactly as the organizer announced it (bagu…)')
  return {
    beacons: parseBeaconLines($<HTMLTextAreaElement>('trust-beacons').value),
    allowUnsigned: $<HTMLInputElement>('allow-unsigned').checked,
    allowUntimestamped: $<HTMLInputElement>('allow-untimestamped').checked,
    tsaRoots: $<HTMLTextAreaElement>('trust-tsa').value.trim() === '' ? [] : parsePemCertificates($<HTMLTextAreaElement>('trust-tsa').value),
    drandChains: parseDrandChainText($<HTMLTextAreaElement>('trust-drand').value),
    ...(pin === '' ? {} : { commitment: pin }),
  }
}

export function fillPanel(s: TrustSettings): void {
  $<HTMLTextAreaElement>('trust-beacons').value = s.beacons.join('\n')
  $<HTMLInputElement>('allow-unsigned').checked = s.allowUnsigned
  $<HTMLInputElement>('allow-untimestamped').checked = s.allowUntimestamped
  $<HTMLTextAreaElement>('trust-tsa').value = s.tsaRoots.join('\n')
  $<HTMLTextAreaElement>('trust-drand').value = (s.drandChains ?? []).length === 0 ? '' : JSON.stringify((s.drandChains ?? []).map(drandInfoJson))
  $<HTMLInputElement>('pin').value = s.commitment ?? ''
}

/** Shows the policy in force under the panel (or the panel's error); returns the settings or undefined. */
export function panelStatus(): TrustSettings | undefined {
  const status = $('trust-status')
  try {
    const s = readPanel()
    const custom = customSettings(s, fromLink.settings)
    status.className = custom.length === 0 ? 'trust-status strict' : 'trust-status custom'
    status.replaceChildren(
      custom.length === 0
        ? t.settings.strictStatus(s.commitment !== undefined)
        : t.settings.customStatus(custom.length),
    )
    return s
  } catch (err) {
    status.className = 'trust-status error'
    // the error may quote a value the page's link gave
    status.replaceChildren(untrusted(t.settings.invalid(errorText(err))))
    return undefined
  }
}

