/** [start, end) of the content of length-delimited protobuf field `n` in `buf`, if present. */
export function fieldContent(buf: Uint8Array, n: number): [number, number] | undefined {
  let i = 0
  const varint = (): number => {
    let v = 0
    for (let shift = 0; ; shift += 7) {
      const b = buf[i++]!
      v += (b & 0x7f) * 2 ** shift
      if ((b & 0x80) === 0) return v
    }
  }
  while (i < buf.length) {
    const tag = varint()
    const wire = tag & 7
    if (wire === 0) varint()
    else if (wire === 2) {
      const len = varint()
      if (tag >> 3 === n) return [i, i + len]
      i += len
    } else return undefined
  }
  return undefined
}
