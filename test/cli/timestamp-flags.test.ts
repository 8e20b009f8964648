import { describe, expect, it } from 'vitest'
import type { CliContext } from '../../src/cli/command.js'
import { TIMESTAMP_HELP, tsaUrlsFrom } from '../../src/cli/timestamp-flags.js'
import { DEFAULT_TSA_URLS } from '../../src/timestamp/client.js'

function ctx(env: Record<string, string> = {}): CliContext {
  return { out: () => undefined, err: () => undefined, env, signal: new AbortController().signal, isTTY: false }
}

describe('the time-stamping flags (read by commit and draw without the time-stamping client)', () => {
  it('default to the client\'s own authorities, in its order, and say them in the help', () => {
    expect(tsaUrlsFrom({}, ctx(), 'commit')).toEqual(DEFAULT_TSA_URLS)
    expect(TIMESTAMP_HELP).toContain(`default: ${DEFAULT_TSA_URLS.join(' and ')}`)
  })

  it('take --tsa before ORBITDRAW_TSA, and refuse a URL that is not http(s)', () => {
    expect(tsaUrlsFrom({ tsa: ['http://a.example/tsa'] }, ctx({ ORBITDRAW_TSA: 'http://b.example' }), 'commit')).toEqual(['http://a.example/tsa'])
    expect(tsaUrlsFrom({}, ctx({ ORBITDRAW_TSA: 'http://b.example, https://c.example' }), 'commit')).toEqual(['http://b.example', 'https://c.example'])
    expect(() => tsaUrlsFrom({ tsa: ['ftp://x'] }, ctx(), 'commit')).toThrow(/is not an http\(s\) URL/)
  })
})
