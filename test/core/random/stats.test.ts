import { describe, expect, it } from 'vitest'
import { chiSquareCritical, chiSquarePValue, chiSquareStatistic, chiSquareTest, gammaQ, lnGamma } from '../../helpers/stats.js'

describe('chi-square helper', () => {
  it('lnGamma and Q(a, x) match known values', () => {
    expect(lnGamma(1)).toBeCloseTo(0, 12)
    expect(lnGamma(5)).toBeCloseTo(Math.log(24), 12)
    expect(lnGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 12)
    expect(gammaQ(1, 2)).toBeCloseTo(Math.exp(-2), 12) // Q(1, x) = e^-x
    expect(chiSquarePValue(3.841458820694124, 1)).toBeCloseTo(0.05, 10)
  })

  it('critical values match published tables (alpha = 0.001 and 0.05)', () => {
    const table: Array<[number, number, number]> = [
      [1, 0.001, 10.828],
      [5, 0.001, 20.515],
      [9, 0.001, 27.877],
      [23, 0.001, 49.728],
      [40, 0.001, 73.402],
      [255, 0.001, 330.520],
      [100, 0.001, 149.449],
      [10, 0.05, 18.307],
      [2, 0.05, 5.991],
    ]
    for (const [df, alpha, c] of table) expect(chiSquareCritical(df, alpha)).toBeCloseTo(c, 2)
  })

  it('statistic and verdict', () => {
    expect(chiSquareStatistic([10, 10, 10])).toBe(0)
    expect(chiSquareStatistic([5, 15], [10, 10])).toBe(5)
    expect(chiSquareTest([100, 100, 100, 100]).pass).toBe(true)
    expect(chiSquareTest([130, 100, 100, 70]).pass).toBe(false)
  })
})
