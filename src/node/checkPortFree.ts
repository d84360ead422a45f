import { createServer } from 'node:net'
import { listenError } from './createServer.js'

/**
 * Listens on host:port once and lets go, so a taken port is said before anything else starts (no
 * devnet started for nothing). Port 0 is always free. The real listen reports the same errors.
 */
export async function checkPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return
  const probe = createServer()
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (err: NodeJS.ErrnoException) => reject(listenError(err, host, port)))
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()))
  })
}
