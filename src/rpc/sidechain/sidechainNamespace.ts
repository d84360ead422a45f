import { defineNamespace } from '../defineNamespace.js'
import { getAuthor } from './getAuthor.js'
import { getRootHash } from './getRootHash.js'
import { getVoteOnHash } from './getVoteOnHash.js'

/**
 * The sidechain namespace (the reference daemon's `bor`): Polygon Bor's consensus API, computed from
 * verified headers. Served under both names (`sidechain_*` and `bor_*`), and only on a Bor chain:
 * elsewhere every method does not exist, as the reference answers.
 */
export const sidechainNamespace = defineNamespace({
  name: 'sidechain',
  summary: "Polygon Bor's consensus API (Bor chains only): block authors, checkpoint root hashes, milestone votes",
  aliasPrefix: 'bor',
  availableOn: (engine) => engine.rules.bor !== undefined,
  methods: [getAuthor, getRootHash, getVoteOnHash],
})
