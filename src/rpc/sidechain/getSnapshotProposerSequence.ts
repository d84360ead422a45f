import { recoverBorAuthor } from '../../chain/bor/borSeal.js'
import { proposerOf } from '../../chain/bor/borValidatorSet.js'
import { defineMethod } from '../defineMethod.js'
import { parseBlockParameter } from '../parseBlockParameter.js'
import { optional } from '../params.js'
import { jsonText } from './renderBorSnapshot.js'
import { parentSnapshotFor } from './snapshotFor.js'

/**
 * sidechain_getSnapshotProposerSequence(block = latest): every validator of the block's parent
 * snapshot with the difficulty its seal would carry (the proposer n, the next n − 1, …, wrapping
 * round the set in address order), highest first; the block's author and its difficulty in that
 * ranking (0 when the author is not in the set). bor's BlockSigners, capitalised keys as Go writes them.
 */
export const getSnapshotProposerSequence = defineMethod({
  name: 'sidechain_getSnapshotProposerSequence',
  params: [optional(parseBlockParameter)],
  async run(engine, [at], context) {
    const { header, snapshot } = await parentSnapshotFor(engine, at, context)
    const { validators } = snapshot.validatorSet
    const proposer = proposerOf(snapshot.validatorSet)
    const p = proposer ? validators.findIndex((v) => v.address === proposer.address) : -1
    const n = validators.length
    const ranked = validators
      .map((v, i) => ({ signer: v.address, difficulty: n - ((i < p ? i + n : i) - p) }))
      .sort((a, b) => b.difficulty - a.difficulty)
    const author = recoverBorAuthor(header.header, engine.rules.bor!.isJaipur(header.number))
    const diff = ranked.find((s) => s.signer === author)?.difficulty ?? 0
    const signers = ranked.map((s) => `{"Signer":"${s.signer}","Difficulty":${s.difficulty}}`).join(',')
    return jsonText(`{"Signers":[${signers}],"Diff":${diff},"Author":"${author}"}`)
  },
})
