// The made-up beacon chain lives with the devnet now (src/node/devnet/createDevnetBeacon.ts: the
// devnet, the fixture node and tests share it); these names stay for the tests and benches using them.
export {
  type BeaconLie,
  type DevnetBeacon as BeaconFixture,
  createDevnetBeacon as createBeaconFixture,
} from '../../src/node/devnet/createDevnetBeacon.js'
export { executionPayloadHeaderOf } from '../../src/node/devnet/executionPayloadHeaderOf.js'
