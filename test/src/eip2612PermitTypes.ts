// The EIP-2612 permit's typed-data types live beside the explorer page's preview (its example permit is built
// from them); the tests import them from there or from here.
export { eip712DomainType, eip2612PermitTypes } from '../../demo/preview/eip2612PermitTypes.js'
