import { readFileSync } from 'node:fs'
const T = []; let t = performance.now()
const lap = (n) => { const now = performance.now(); T.push([n, now - t]); t = now }
const what = process.argv[2]
if (what === 'subtle') {
  globalThis.crypto.subtle; lap('globalThis.crypto.subtle getter')
  await crypto.subtle.digest('SHA-256', new Uint8Array(1)); lap('first subtle.digest')
  const k = await crypto.subtle.generateKey({ name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1,0,1]), hash: 'SHA-256' }, true, ['sign', 'verify']); lap('(generate, not counted)')
  const spki = await crypto.subtle.exportKey('spki', k.publicKey); const sig = await crypto.subtle.sign('RSASSA-PKCS1-v1_5', k.privateKey, new Uint8Array(10)); lap('(sign, not counted)')
  const pk = await crypto.subtle.importKey('spki', spki, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['verify']); lap('importKey spki RSA')
  await crypto.subtle.verify('RSASSA-PKCS1-v1_5', pk, sig, new Uint8Array(10)); lap('RSA verify')
  await crypto.subtle.verify('RSASSA-PKCS1-v1_5', pk, sig, new Uint8Array(10)); lap('RSA verify again')
} else {
  const B = readFileSync('/tmp/sp/beacon', 'utf8')
  const { verify } = await import('./dist/core/verify.js'); lap('import core/verify')
  const { normalizeTrustedBeacons, ORBITPORT_BEACONS } = await import('./dist/core/trust.js'); lap('import trust')
  const { parseTrustAnchors } = await import('./dist/core/timestamp/anchor.js'); lap('import timestamp/anchor (asn1/DER, certificate)')
  const { DEFAULT_TIMESTAMP_AUTHORITIES } = await import('./dist/core/timestamp/defaults.js'); lap('import defaults (parse 2 default roots)')
  const extra = parseTrustAnchors(readFileSync('/tmp/sp/tsa.pem', 'utf8')); lap('parse --trust-tsa root')
  await import('./dist/core/timestamp/check.js'); lap('import timestamp/check')
  await import('./dist/core/ipns/record.js'); lap('import ipns/record')
  const bytes = readFileSync(what === 'plain' ? '/tmp/sp/plain.json' : '/tmp/sp/signed.json')
  const opts = what === 'plain' ? { now: new Date(), allowUnsigned: true, allowUntimestamped: true } : { now: new Date(), trust: { beacons: [...ORBITPORT_BEACONS, ...normalizeTrustedBeacons([{ name: B, label: 'x' }])], timestampAuthorities: [...DEFAULT_TIMESTAMP_AUTHORITIES, ...extra] } }
  let r = await verify(bytes, opts); lap('verify #1 ' + r.ok)
  r = await verify(bytes, opts); lap('verify #2 ' + r.ok)
  r = await verify(bytes, opts); lap('verify #3 ' + r.ok)
}
for (const [n, ms] of T) console.log(ms.toFixed(1).padStart(7), n)
