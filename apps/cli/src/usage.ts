/**
 * The usage text of `docforge`, and each command's own part of it: a refused command line of a
 * known command prints that command's usage, never the whole text (third trial of stop 48).
 */

/** The whole usage text, printed by `--help` and after a refused line that names no known command. */
export const USAGE = `Usage: docforge <command> [options]

Commands:
  init [DIR]              write a docforge.toml for an existing docs folder (scans DIR, default .)
  sync                    check source identity and rebuild the index when stale
  validate [--min-severity error|warning|info]
                          list validation issues (exit 1 when there are errors)
  affected [--diff -]     what a change makes stale: changed nodes since the last publication (or
                          in the unified diff on stdin), then the docs, requirements and tests that
                          rest on them, each with its path and section (--depth N, --limit N, --json);
                          never syncs
  check [--strict] [--format text|github|sarif] [--min-severity error|warning|info]
                          CI check: every validation finding; exit 1 on errors and, with --strict,
                          on suspect_* and drift_* findings (info never fails it); --min-severity
                          prints only findings at that severity or above (default info: all) and
                          those that fail the check; the summary and exit code count every finding
  search QUERY            full-text search (bm25) over the project graph; filters as comma lists:
                          --kinds, --languages, --capabilities, --tags, --families, --authorities, --statuses
  node ID                 one node: fields, relations, body (--section SLUG, --body-offset N,
                          --max-body-chars N, --no-body); as docforge_get_node
  backlinks ID            incoming relations (--relations R1,R2, --limit N, --cursor C)
  deps ID                 outgoing traversal (--depth N, --relations R1,R2, --limit N); docforge_dependencies
  impact ID               incoming traversal: what a change reaches (--depth N, --relations, --limit N)
  context QUERY | --node ID
                          token-budgeted evidence (--budget N, --limit N, --cursor C); docforge_get_context
  context --task-kind KIND TASK [--node ID]
                          evidence and plan for a task (change, implementation, failure, ownership,
                          test, operation, release); docforge_get_task_context
  changeset list [--all]  list draft and ready changesets (--all: every status; stale derived when read)
  changeset show ID       one changeset: hash, base, operations, receipts
  changeset diff ID       per operation: front matter before/after and the body diff (colored on a terminal)
  changeset validate ID   project and validate a changeset (exit 1 when invalid)
  changeset rebase ID --writer W
                          move a stale changeset of writer W to the current base when every invariant
                          holds (no touched node or source changed, no conflict); docforge_rebase_changeset
  changeset abandon ID --writer W
                          abandon a changeset of writer W, keeping it and an audit receipt
  changeset apply ID --sha256 H --canonical-applier W [--no-ast]
                          apply a reviewed changeset to the canonical files (exact hash; the
                          project must supply a canonical applier), then refresh the index
  review ID --writer W --canonical-applier A [--target T] [--relations R1,R2] [--yes]
                          stamp the links of document ID with their targets' review hashes (those not
                          reviewed, or every one to T): registers a link_review changeset, prints its
                          diff and hash, applies that hash after confirmation (y on stdin) or --yes
  render [VIEW]           render declared views ([[views]]) to their output files, with receipts
  render --status [VIEW] [--deep]
                          render status per view: current, stale or unverified (exit 1 unless all
                          current); --deep re-renders in memory and compares with the files
  viewer open [QUERY | --node ID]
                          open the graph browser on this project (the architecture map, one search, or
                          one focus node) and print its one-time URL; docforge_visualize
  viewer status [--all]   the graph-browser workers of this project (--all: of every project) and the viewer manager
  viewer stop [--all]     stop this project's workers (--all: every worker and the per-user viewer manager)
  demo                    start docforge-mcp on the bundled examples/ and print a transcript

Options:
  -C, --project-root DIR  project root (default: the nearest folder at or above the current one
                          that holds a docforge.toml)
      --limit N           result limit for search and validate
      --json              print JSON instead of text (read commands: the tool's structuredContent)
      --progress          report index build progress on stderr even when it is not a terminal
      --no-progress       never report progress (default: reported when stderr is a terminal)
      --version           print the version and exit
  -h, --help              show this help`;

/** The first word of each option entry of the usage text that every command takes. */
const COMMON_OPTIONS = new Set(['-C,', '--json', '--progress', '--no-progress', '-h,']);

/**
 * The entries of one section of the usage text whose first word `keep` accepts: an entry is a line
 * indented by 2 to 6 spaces and the lines indented deeper that continue it.
 */
function entries(section: string, keep: (word: string) => boolean): string[] {
  const kept: string[] = [];
  let inside = false;
  for (const line of section.split('\n')) {
    const entry = /^ {2,6}(\S+)/.exec(line);
    if (entry !== null && !/^ {7,}/.test(line)) inside = keep(entry[1]!);
    else if (!/^ {7,}\S/.test(line)) inside = false;
    if (inside) kept.push(line);
  }
  return kept;
}

/**
 * The usage of one command: its entries of the usage text's Commands section (each line starting
 * with the command's name, with the lines that continue it) and the options every command takes,
 * plus the Options entries named in `options` (the command's own option names, without `--`);
 * null when the text has no entry for `command`.
 */
export function commandUsage(command: string, options: readonly string[] = []): string | null {
  const at = USAGE.indexOf('\nOptions:\n');
  const own = entries(USAGE.slice(0, at), (word) => word === command);
  if (own.length === 0) return null;
  const common = entries(USAGE.slice(at), (word) => COMMON_OPTIONS.has(word) || options.includes(word.replace(/^--/, '')));
  return `Usage: docforge ${command} ...\n\n${own.join('\n')}\n\nOptions:\n${common.join('\n')}`;
}
