import { defineNamespace } from '../defineNamespace.js'
import { getAuthor } from './getAuthor.js'
import { getCurrentProposer } from './getCurrentProposer.js'
import { getCurrentValidators } from './getCurrentValidators.js'
import { getRootHash } from './getRootHash.js'
import { getSigners } from './getSigners.js'
import { getSignersAtHash } from './getSignersAtHash.js'
import { getSnapshot } from './getSnapshot.js'
import { getSnapshotAtHash } from './getSnapshotAtHash.js'
import { getSnapshotProposer } from './getSnapshotProposer.js'
import { getSnapshotProposerSequence } from './getSnapshotProposerSequence.js'
import { getVoteOnHash } from './getVoteOnHash.js'

/**
 * The sidechain namespace (the reference daemon's `bor`): Polygon Bor's consensus API, computed from
 * verified headers. Served under both names (`sidechain_*` and `bor_*`), and only on a Bor chain:
 * elsewhere every method does not exist, as the reference answers.
 */
export const sidechainNamespace = defineNamespace({
  name: 'sidechain',
  summary:
    "Polygon Bor's consensus API (Bor chains only): block authors, validator snapshots and proposers, checkpoint root hashes, milestone votes",
  aliasPrefix: 'bor',
  availableOn: (engine) => engine.rules.bor !== undefined,
  methods: [
    getAuthor,
    getSnapshot,
    getSnapshotAtHash,
    getSigners,
    getSignersAtHash,
    getCurrentProposer,
    getCurrentValidators,
    getSnapshotProposer,
    getSnapshotProposerSequence,
    getRootHash,
    getVoteOnHash,
  ],
})
