import { readFileSync } from 'node:fs'
const B = readFileSync('/tmp/sp/beacon', 'utf8')
const { verify } = await import('./dist/core/verify.js')
const { normalizeTrustedBeacons, ORBITPORT_BEACONS } = await import('./dist/core/trust.js')
const { parseTrustAnchors } = await import('./dist/core/timestamp/anchor.js')
const { DEFAULT_TIMESTAMP_AUTHORITIES } = await import('./dist/core/timestamp/defaults.js')
const extra = parseTrustAnchors(readFileSync('/tmp/sp/tsa.pem', 'utf8'))
const bytes = readFileSync('/tmp/sp/signed.json')
const opts = { now: new Date(), trust: { beacons: [...ORBITPORT_BEACONS, ...normalizeTrustedBeacons([{ name: B, label: 'x' }])], timestampAuthorities: [...DEFAULT_TIMESTAMP_AUTHORITIES, ...extra] } }
const n = Number(process.argv[2] ?? 1)
for (let i = 0; i < n; i++) { const t = performance.now(); const r = await verify(bytes, opts); if (i < 3 || i === n - 1) console.log(i, r.ok, (performance.now() - t).toFixed(1)) }
