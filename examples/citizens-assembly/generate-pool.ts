/**
 * Generates the example's respondent pool (`pool.csv`) and quotas (`quotas.csv`) deterministically:
 * 2,400 people who answered the invitation letters of a fictional county's citizens' assembly
 * ("Riverside", five districts), with five features. Respondents to such letters skew older, more
 * educated and more often home-owning than the population, so the pool's marginals below do too;
 * education and housing depend on the age group, as they do in census tables. The quotas are the
 * population's shares of 40 seats with about two seats of slack on each side (none below 0), which is
 * what an assembly's organizers publish (tighter quotas on five features leave too few valid panels
 * for orbitdraw's uniform draw: it refuses them at commit with SORTITION_ACCEPTANCE_TOO_LOW).
 *
 *   npx tsx examples/citizens-assembly/generate-pool.ts           # rewrites pool.csv and quotas.csv here
 *   npx tsx examples/citizens-assembly/generate-pool.ts --check   # exit 1 if the committed files differ
 *
 * The generator is a fixed-seed xorshift: for making a fixture only, never for a draw.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const RESPONDENTS = 2_400
export const SEATS = 40

type Shares = readonly (readonly [string, number])[]

/** The respondents' marginals (skewed towards who answers a letter). */
const GENDER: Shares = [['female', 0.505], ['male', 0.485], ['non-binary or other', 0.01]]
const AGE: Shares = [['16-24', 0.09], ['25-34', 0.14], ['35-44', 0.16], ['45-54', 0.18], ['55-64', 0.2], ['65+', 0.23]]
const DISTRICT: Shares = [['Centre', 0.17], ['East', 0.18], ['North', 0.22], ['South', 0.24], ['West', 0.19]]
/** Education and housing by age group (young: under 35; middle: 35-64; old: 65+). */
const EDUCATION: Record<'young' | 'middle' | 'old', Shares> = {
  young: [['no qualifications', 0.05], ['school or vocational', 0.45], ['degree', 0.5]],
  middle: [['no qualifications', 0.09], ['school or vocational', 0.45], ['degree', 0.46]],
  old: [['no qualifications', 0.22], ['school or vocational', 0.46], ['degree', 0.32]],
}
const HOUSING: Record<'young' | 'middle' | 'old', Shares> = {
  young: [['owner', 0.3], ['private renter', 0.52], ['social renter', 0.18]],
  middle: [['owner', 0.66], ['private renter', 0.2], ['social renter', 0.14]],
  old: [['owner', 0.8], ['private renter', 0.07], ['social renter', 0.13]],
}

/**
 * The quotas of 40 seats: [min, max] per value, around the county's population shares (census-like),
 * not the pool's.
 */
const QUOTAS: readonly (readonly [string, string, number, number])[] = [
  ['age', '16-24', 4, 8], ['age', '25-34', 5, 9], ['age', '35-44', 5, 9], ['age', '45-54', 5, 9], ['age', '55-64', 4, 8], ['age', '65+', 6, 10],
  ['district', 'Centre', 5, 9], ['district', 'East', 5, 9], ['district', 'North', 7, 11], ['district', 'South', 7, 11], ['district', 'West', 5, 9],
  ['education', 'degree', 11, 16], ['education', 'no qualifications', 5, 10], ['education', 'school or vocational', 17, 22],
  ['gender', 'female', 18, 22], ['gender', 'male', 17, 22], ['gender', 'non-binary or other', 0, 2],
  ['housing', 'owner', 22, 27], ['housing', 'private renter', 6, 11], ['housing', 'social renter', 5, 9],
]

function xorshift(seed: number): () => number {
  let x = seed >>> 0 || 1
  return () => {
    x ^= x << 13
    x >>>= 0
    x ^= x >>> 17
    x ^= x << 5
    x >>>= 0
    return x / 2 ** 32
  }
}

function pick(shares: Shares, u: number): string {
  let acc = 0
  for (const [value, p] of shares) {
    acc += p
    if (u < acc) return value
  }
  return shares[shares.length - 1]![0]
}

/** The two files' text (CSV, LF line ends). */
export function generate(): { pool: string; quotas: string } {
  const rnd = xorshift(20261123)
  const lines = ['id,gender,age,district,education,housing']
  for (let i = 0; i < RESPONDENTS; i++) {
    const age = pick(AGE, rnd())
    const group = age === '16-24' || age === '25-34' ? 'young' : age === '65+' ? 'old' : 'middle'
    lines.push([`R${String(i + 1).padStart(4, '0')}`, pick(GENDER, rnd()), age, pick(DISTRICT, rnd()), pick(EDUCATION[group], rnd()), pick(HOUSING[group], rnd())].join(','))
  }
  const quotas = ['feature,value,min,max', ...QUOTAS.map((q) => q.join(','))]
  return { pool: `${lines.join('\n')}\n`, quotas: `${quotas.join('\n')}\n` }
}

const here = dirname(fileURLToPath(import.meta.url))
if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { pool, quotas } = generate()
  if (process.argv.includes('--check')) {
    const same = (await readFile(join(here, 'pool.csv'), 'utf8')) === pool && (await readFile(join(here, 'quotas.csv'), 'utf8')) === quotas
    console.log(same ? 'pool.csv and quotas.csv are what the generator makes' : 'pool.csv or quotas.csv differs from what the generator makes')
    process.exit(same ? 0 : 1)
  }
  await writeFile(join(here, 'pool.csv'), pool)
  await writeFile(join(here, 'quotas.csv'), quotas)
  console.log(`wrote pool.csv (${RESPONDENTS} respondents) and quotas.csv (${QUOTAS.length} rows, ${SEATS} seats)`)
}
