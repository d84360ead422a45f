import { shouldYield, yieldToEventLoop } from '../utils/yieldToEventLoop.js'

/** The scheduler every execution runs with: other requests are served while one computes. */
export const COOPERATIVE = { shouldYield, yieldToEventLoop }
