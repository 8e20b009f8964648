/**
 * The CLI's standard output and error writer (src/cli/std-writer.ts): `fs.writeSync` on the descriptor,
 * Node's stream when the descriptor cannot take the bytes now, a closed pipe stopping the writing.
 */
import { EventEmitter } from 'node:events'
import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { stdWriter, type WriteSync } from '../../src/cli/std-writer.js'

/** A stand-in for Node's stream: records what it is given. */
function fakeStream(): NodeJS.WritableStream & { chunks: string[] } {
  const s = Object.assign(new EventEmitter(), {
    chunks: [] as string[],
    write(chunk: string | Uint8Array) {
      s.chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'))
      return true
    },
  })
  return s as unknown as NodeJS.WritableStream & { chunks: string[] }
}

const errno = (code: string): NodeJS.ErrnoException => Object.assign(new Error(code), { code })

describe('stdWriter', () => {
  it('writes the text as UTF-8 to its descriptor, looping over partial writes, and never builds the stream', () => {
    const written: [number, string][] = []
    // At most 3 bytes per call, as a descriptor may accept fewer bytes than asked.
    const write: WriteSync = (fd, bytes, offset, length) => {
      const n = Math.min(3, length)
      written.push([fd, Buffer.from(bytes.subarray(offset, offset + n)).toString('latin1')])
      return n
    }
    let streams = 0
    const out = stdWriter({ fd: 2, stream: () => (streams++, fakeStream()), write, streamOnly: false })
    out('✓ ok\n')
    out('')
    out('b')
    expect(Buffer.from(written.map(([, t]) => t).join(''), 'latin1').toString('utf8')).toBe('✓ ok\nb')
    expect(new Set(written.map(([fd]) => fd))).toEqual(new Set([2]))
    expect(streams).toBe(0)
    // Nothing can be queued: runAsProcess may exit at once.
    expect(out.usedStream()).toBe(false)
  })

  it('on EAGAIN hands the rest of the text, and every later write, to the stream, in order', () => {
    const direct: string[] = []
    let calls = 0
    const write: WriteSync = (_fd, bytes, offset, length) => {
      if (++calls === 2) throw errno('EAGAIN')
      const n = Math.min(4, length)
      direct.push(Buffer.from(bytes.subarray(offset, offset + n)).toString('utf8'))
      return n
    }
    const stream = fakeStream()
    const out = stdWriter({ fd: 1, stream: () => stream, write, streamOnly: false })
    out('abcdefgh')
    out('ij')
    expect(direct).toEqual(['abcd'])
    expect(stream.chunks).toEqual(['efgh', 'ij'])
    expect(calls).toBe(2)
    // Text may still be queued there: runAsProcess leaves it to drain.
    expect(out.usedStream()).toBe(true)
  })

  it('on another error (or a write of no bytes) hands over to the stream, which reports it as before', () => {
    for (const fail of [() => { throw errno('EBADF') }, () => 0]) {
      const stream = fakeStream()
      const out = stdWriter({ fd: 1, stream: () => stream, write: fail, streamOnly: false })
      out('x')
      expect(stream.chunks).toEqual(['x'])
      // The stream's own errors other than EPIPE still surface.
      expect(() => stream.emit('error', errno('EIO'))).toThrow('EIO')
    }
  })

  it('stops quietly at a closed pipe (EPIPE), once, and writes nothing more', () => {
    let calls = 0
    let closed = 0
    const out = stdWriter({ fd: 1, stream: () => fakeStream(), onClosed: () => closed++, write: () => {
      calls++
      throw errno('EPIPE')
    }, streamOnly: false })
    out('a')
    out('b')
    expect([calls, closed]).toEqual([1, 1])
  })

  it('a closed pipe reported by the stream (after a hand-over) stops the writing too', () => {
    const stream = fakeStream()
    let closed = 0
    const out = stdWriter({ fd: 1, stream: () => stream, onClosed: () => closed++, write: () => { throw errno('EAGAIN') }, streamOnly: false })
    out('a')
    stream.emit('error', errno('EPIPE'))
    out('b')
    expect(stream.chunks).toEqual(['a'])
    expect(closed).toBe(1)
  })

  it('with streamOnly (Windows) writes through the stream only', () => {
    const stream = fakeStream()
    const out = stdWriter({ fd: 1, stream: () => stream, write: () => { throw new Error('not called') }, streamOnly: true })
    out('a')
    out('b')
    expect(stream.chunks).toEqual(['a', 'b'])
    expect(out.usedStream()).toBe(true)
  })

  it('in a real process: the bytes reach a pipe, and a pipe closed early ends the writing without an error', () => {
    const url = new URL('../../dist/cli/std-writer.js', import.meta.url).href
    const script = `import(${JSON.stringify(url)}).then(({ stdWriter }) => {
      let closed = false
      const out = stdWriter({ fd: 1, stream: () => process.stdout, onClosed: () => { closed = true } })
      for (let i = 0; i < 1000000 && !closed; i++) out('line ✓ ' + i + '\\n')
      process.stderr.write(closed ? 'closed' : 'not closed')
    })`
    const piped = spawnSync(process.execPath, ['-e', script.replace('1000000', '3')], { encoding: 'utf8' })
    expect([piped.status, piped.stdout, piped.stderr]).toEqual([0, 'line ✓ 0\nline ✓ 1\nline ✓ 2\n', 'not closed'])
    const early = spawnSync('bash', ['-c', `set -o pipefail; "${process.execPath}" -e "$0" | head -1`, script], { encoding: 'utf8' })
    expect([early.status, early.stdout, early.stderr]).toEqual([0, 'line ✓ 0\n', 'closed'])
  })
})
