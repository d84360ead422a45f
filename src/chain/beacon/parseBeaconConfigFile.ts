/**
 * The scalar keys of a consensus specs config file (`config.yaml`: `KEY: value` lines, `#` comments,
 * values maybe quoted), as the Beacon API's `/eth/v1/config/spec` gives them: strings. Nested
 * entries (BLOB_SCHEDULE's list) are skipped — the light client needs none of them. A line that is
 * neither is an error naming its number.
 */
export function parseBeaconConfigFile(text: string, name = 'config'): Record<string, string> {
  const keys: Record<string, string> = {}
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.replace(/(^|\s)#.*$/, '').trimEnd()
    if (line.trim() === '' || /^\s/.test(line) || /^-/.test(line)) continue
    const m = line.match(/^([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(.*)$/)
    if (!m) throw new Error(`${name}: line ${i + 1} is not KEY: value (${raw.trim().slice(0, 60)})`)
    const value = m[2]!.trim().replace(/^(['"])(.*)\1$/, '$2')
    if (value !== '') keys[m[1]!] = value
  }
  // Newer configs give the slot in milliseconds.
  if (keys.SECONDS_PER_SLOT === undefined && keys.SLOT_DURATION_MS !== undefined)
    keys.SECONDS_PER_SLOT = String(Number(keys.SLOT_DURATION_MS) / 1000)
  return keys
}
