import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

// The docs (issue 35): README.md opens with why, the set-up and three guides; the reference is in
// docs/*.md, indexed by docs/README.md, each file with its own contents. Every relative link of
// them — files, screenshots, anchors — must lead somewhere, so text moved between files keeps
// its links.

const ROOT = resolve(import.meta.dirname, '..')
const DOCS = resolve(ROOT, 'docs')
const docFiles = readdirSync(DOCS)
  .filter((f) => f.endsWith('.md'))
  .map((f) => resolve(DOCS, f))
const files = [resolve(ROOT, 'README.md'), ...docFiles]
const read = (file: string) => readFileSync(file, 'utf8')

/** Markdown text without its fenced code blocks (a link in code is code). */
const prose = (text: string) => text.replace(/^```[\s\S]*?^```/gm, '')

/** GitHub's heading anchors: lower case, punctuation but `-` and `_` dropped, spaces as `-`, repeats numbered. */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>()
  const anchors = new Set<string>()
  for (const [, title] of prose(text).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = (title as string)
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-')
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    anchors.add(n === 0 ? base : `${base}-${n}`)
  }
  return anchors
}

/** The relative links of a markdown file: `[text](target)` and `![alt](target)`, outside code. */
function linksOf(text: string): string[] {
  return [...prose(text).matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1] as string)
    .filter((target) => !/^[a-z]+:/i.test(target))
}

describe('README.md and docs/', () => {
  it.each(files.map((f) => [relative(ROOT, f), f]))('%s: every relative link leads to a file and anchor', (_, file) => {
    const broken: string[] = []
    for (const link of linksOf(read(file))) {
      const [path, anchor] = link.split('#') as [string, string | undefined]
      const target = path === '' ? file : resolve(dirname(file), path)
      if (!existsSync(target)) {
        broken.push(`${link}: no file ${relative(ROOT, target)}`)
        continue
      }
      if (anchor && target.endsWith('.md') && !anchorsOf(read(target)).has(anchor)) {
        broken.push(`${link}: no heading #${anchor} in ${relative(ROOT, target)}`)
      }
    }
    expect(broken).toEqual([])
  })

  it('the README opens with why, then the two set-up commands, the three guides and the map of docs/', () => {
    const readme = read(resolve(ROOT, 'README.md'))
    const headings = [...prose(readme).matchAll(/^(##+) (.+)$/gm)].map((m) => `${m[1]} ${m[2]}`)
    expect(headings).toEqual([
      '## Set-up on a fresh machine',
      '## Guides',
      '### Trace a transaction of your own node from the CLI',
      '### Verified tracing behind viem in a page',
      '### Preview a transaction in a wallet',
      '## The docs',
    ])
    const beforeSetUp = readme.slice(0, readme.indexOf('## Set-up'))
    expect(beforeSetUp).toMatch(/no `debug_` or `trace_`/)
    expect(beforeSetUp).toMatch(/do not trust/)
    // Exactly two set-up commands, each with how long it takes.
    const setUp = readme.slice(readme.indexOf('## Set-up'), readme.indexOf('## Guides'))
    expect([...setUp.matchAll(/^```sh\n([^`]*)```/gm)].map((m) => m[1]?.trim())).toEqual([
      'npm install && npm start',
      'npm install && npm test',
    ])
    expect(setUp).toMatch(/npm start` takes\s+about [\d–]+ s/)
    expect(setUp).toMatch(/about \d+(–\d+)? minutes on this 2-core/)
    // npx edgetrace before the package is published.
    expect(readme).toMatch(
      /`npx edgetrace` runs the command of a clone[\s\S]*installed\s+tarball[\s\S]*until the package is published/,
    )
    // Every docs file is on the map.
    for (const f of docFiles) expect(readme).toContain(`](docs/${relative(DOCS, f)})`)
  })

  it('"the reference daemon" is defined once, as Erigon\'s rpcdaemon, and each docs file links its first mention there', () => {
    const index = read(resolve(DOCS, 'README.md'))
    expect(anchorsOf(index).has('the-reference-daemon')).toBe(true)
    expect(index).toMatch(/"The reference daemon" \(or "the reference"\) in these docs is \*\*Erigon's rpcdaemon\*\*/)
    expect(read(resolve(ROOT, 'README.md'))).toMatch(/"the reference daemon" always means Erigon's rpcdaemon/)
    for (const file of docFiles) {
      const text = read(file)
      const first = /the\s+reference(\s+daemon)?\b/.exec(prose(text))
      if (!first || file.endsWith('/README.md')) continue
      // The first mention is the link.
      expect(prose(text).slice(first.index - 1, first.index), relative(ROOT, file)).toBe('[')
    }
  })

  it('docs/README.md indexes every docs file, and each file opens with its own contents', () => {
    const index = read(resolve(DOCS, 'README.md'))
    for (const file of docFiles) {
      if (file.endsWith('/README.md')) continue
      const name = relative(DOCS, file)
      expect(index, name).toContain(`](${name})`)
      const text = read(file)
      expect(text, name).toMatch(/^# .+\n\n[^\n]+\n\n\*\*Contents\*\*\n\n- \[/)
      // The contents list names every ## and ### heading of the file, in order.
      const listed = [...text.matchAll(/^ *- \[[^\]]+\]\(#([^)]+)\)$/gm)].map((m) => m[1])
      expect(listed.length, name).toBeGreaterThan(0)
      for (const a of listed) expect(anchorsOf(text).has(a as string), `${name}#${a}`).toBe(true)
    }
  })
})
