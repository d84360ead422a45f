import { spawn } from 'node:child_process'
import { CLI_ARGS } from './cliCommand.js'

/**
 * Runs the edgetrace CLI (its compiled copy, or src/node/cli.ts through tsx: test/src/cliCommand.ts) until its output matches `until` (resolves
 * with the output so far and a kill switch) or it exits (resolves with its code); after 30 s it is
 * ended and resolves with what it printed. `env`: the child's environment (this process's by default).
 */
export function runCli(
  args: string[],
  until: RegExp,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number | null; output: string; kill(): void }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...CLI_ARGS, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env,
    })
    let output = ''
    let done = false
    const finish = (code: number | null) => {
      if (done) return
      done = true
      resolve({ code, output, kill: () => child.kill('SIGTERM') })
    }
    const onData = (d: Buffer) => {
      output += d.toString()
      if (until.test(output)) finish(null)
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.on('exit', (code) => finish(code))
    // Bounded: a CLI that neither prints the line nor exits is ended.
    setTimeout(() => {
      child.kill('SIGTERM')
      finish(null)
    }, 30_000).unref()
  })
}
