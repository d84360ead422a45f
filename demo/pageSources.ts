import { type SourceRegistry, createSourceRegistry } from '../src/sources/createSourceRegistry.js'
import { type NamedSourceFile, readSourceFiles } from '../src/sources/readSourceFiles.js'

/**
 * The build outputs this page debugs at the source level: the serving devnet's (GET
 * explorer-sources.json, named in explorer.json) and what the user drops or picks. Contracts are
 * matched to the code a frame runs by runtime bytecode (createSourceRegistry), never by address.
 */
export type PageSources = {
  readonly registry: SourceRegistry
  /** The files read so far (what the in-browser daemon's `config.sources` is given). */
  readonly files: readonly NamedSourceFile[]
  /** Counts the changes: a connection or a view made before a change is made again. */
  readonly version: number
  /** Where the contracts came from, for the page to say. */
  readonly origins: readonly string[]
  /** Reads files (all together: a Foundry artifact finds its build-info among them); what could not be read is returned. */
  add(
    files: readonly NamedSourceFile[],
    origin: string,
  ): { contracts: number; added: number; unread: { name: string; why: string }[] }
  onChange(listener: () => void): void
}

export function createPageSources(): PageSources {
  const files: NamedSourceFile[] = []
  const origins: string[] = []
  const listeners: (() => void)[] = []
  const registry = createSourceRegistry()
  let version = 0
  return {
    registry,
    files,
    get version() {
      return version
    },
    origins,
    add(given, origin) {
      const { contracts, read, unread } = readSourceFiles(given)
      const before = registry.size
      registry.add(contracts)
      const added = registry.size - before
      if (added > 0) {
        const kept = new Set(read)
        files.push(...given.filter((f) => kept.has(f.name)))
        origins.push(`${origin}: ${added} contracts`)
        version++
        for (const l of listeners) l()
      }
      return { contracts: contracts.length, added, unread }
    },
    onChange(listener) {
      listeners.push(listener)
    },
  }
}

/** The page's one set of sources. */
export const pageSources = createPageSources()

/** Files worth reading from a dropped or picked folder: build outputs (JSON) and Solidity sources, not dependencies' trees. */
export const wanted = (path: string) =>
  /\.(json|sol)$/.test(path) && !/(^|\/)(node_modules|\.git|cache|lib)\//.test(path)

/** The files of a drop: folders walked (webkitGetAsEntry), each file named by its path in the drop. */
export async function droppedFiles(items: DataTransferItemList): Promise<NamedSourceFile[]> {
  const out: NamedSourceFile[] = []
  const walk = async (entry: FileSystemEntry, path: string): Promise<void> => {
    if (entry.isFile) {
      if (!wanted(path)) return
      const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject))
      out.push({ name: path, text: await file.text() })
    } else if (entry.isDirectory) {
      const reader = (entry as FileSystemDirectoryEntry).createReader()
      for (;;) {
        const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject))
        if (batch.length === 0) break
        for (const e of batch) await walk(e, `${path}/${e.name}`)
      }
    }
  }
  // Entries and plain files are taken from the items at once: a drop's items are gone after the event's turn.
  const taken = Array.from(items)
    .filter((i) => i.kind === 'file')
    .map((i) => ({ entry: i.webkitGetAsEntry(), file: i.getAsFile() }))
  for (const { entry, file } of taken) {
    if (entry) await walk(entry, entry.name)
    else if (file && wanted(file.name)) out.push({ name: file.name, text: await file.text() })
  }
  return out
}

/** The files of a file input (a folder's with their paths in it: webkitRelativePath). */
export async function pickedFiles(list: FileList): Promise<NamedSourceFile[]> {
  const out: NamedSourceFile[] = []
  for (const f of Array.from(list)) {
    const name = f.webkitRelativePath || f.name
    if (wanted(name)) out.push({ name, text: await f.text() })
  }
  return out
}
