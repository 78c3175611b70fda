import type { CompletionNode } from './command-tree';

/** Command names and flags are `[a-z0-9-]` words; anything else is refused rather than quoted into a script. */
const WORD_RE = /^-{0,2}[A-Za-z0-9][A-Za-z0-9-]*$/;

function words(list: readonly string[]): string {
  for (const w of list) if (!WORD_RE.test(w)) throw new Error(`completion: refusing the word ${JSON.stringify(w)}`);
  return list.join(' ');
}

/**
 * POSIX-shell functions shared by both scripts: `_genswarms_words <path>` (candidates), `_genswarms_has_sub <path>`,
 * `_genswarms_value_flag <path> <flag>` and `_genswarms_files <path>`.
 */
function tables(nodes: readonly CompletionNode[]): string {
  const arms = (fn: (n: CompletionNode) => string | undefined): string =>
    nodes
      .map((n) => [n, fn(n)] as const)
      .filter((e): e is readonly [CompletionNode, string] => e[1] !== undefined)
      .map(([n, body]) => `    '${words(n.path === '' ? [] : n.path.split(' '))}') ${body} ;;`)
      .join('\n');
  return `_genswarms_words() {
  case "$1" in
${arms((n) => `echo '${words([...n.subcommands, ...n.flags])}'`)}
  esac
}
_genswarms_has_sub() {
  case "$1" in
${arms((n) => (n.subcommands.length > 0 && n.path !== '' ? 'return 0' : undefined))}
  esac
  return 1
}
_genswarms_value_flag() {
  case "$1 $2" in
${nodes.flatMap((n) => n.valueFlags.map((f) => `    '${words(n.path === '' ? [f] : [...n.path.split(' '), f])}') return 0 ;;`)).join('\n')}
  esac
  return 1
}
_genswarms_files() {
  case "$1" in
${arms((n) => (n.files ? 'return 0' : undefined))}
  esac
  return 1
}
# The command path of the words before the cursor: "", "status", "agents add" (flags and their values skipped).
_genswarms_path() {
  _gs_path=''
  _gs_skip=0
  for _gs_w in "$@"; do
    if [ "$_gs_skip" = 1 ]; then _gs_skip=0; continue; fi
    case "$_gs_w" in
      -*) if _genswarms_value_flag "$_gs_path" "$_gs_w"; then _gs_skip=1; fi ;;
      *)
        if [ -z "$_gs_path" ]; then _gs_path="$_gs_w"
        elif _genswarms_has_sub "$_gs_path" && [ "\${_gs_path#* }" = "$_gs_path" ]; then _gs_path="$_gs_path $_gs_w"
        else break
        fi ;;
    esac
  done
  _gs_prev_value=$_gs_skip
}`;
}

/** The bash completion script (`source <(genswarms completion bash)`). */
export function bashScript(nodes: readonly CompletionNode[]): string {
  return `# genswarms bash completion, generated from the command tree by \`genswarms completion bash\`.
# Load it with: source <(genswarms completion bash)
${tables(nodes)}
_genswarms() {
  local cur="\${COMP_WORDS[COMP_CWORD]}"
  _genswarms_path "\${COMP_WORDS[@]:1:COMP_CWORD-1}"
  if [ "$_gs_prev_value" = 1 ]; then COMPREPLY=( $(compgen -f -- "$cur") ); return 0; fi
  COMPREPLY=( $(compgen -W "$(_genswarms_words "$_gs_path")" -- "$cur") )
  if [[ "$cur" != -* ]] && _genswarms_files "$_gs_path"; then COMPREPLY+=( $(compgen -f -- "$cur") ); fi
  return 0
}
complete -o default -F _genswarms genswarms
`;
}

/** The zsh completion script (`source <(genswarms completion zsh)`, or saved as `_genswarms` on $fpath). */
export function zshScript(nodes: readonly CompletionNode[]): string {
  return `#compdef genswarms
# genswarms zsh completion, generated from the command tree by \`genswarms completion zsh\`.
# Load it with: source <(genswarms completion zsh)   (or save it as _genswarms in a directory on $fpath)
${tables(nodes)}
_genswarms() {
  _genswarms_path "\${(@)words[2,CURRENT-1]}"
  if [ "$_gs_prev_value" = 1 ]; then _files; return; fi
  local -a candidates
  candidates=(\${=$(_genswarms_words "$_gs_path")})
  compadd -a candidates
  if [[ "\${words[CURRENT]}" != -* ]] && _genswarms_files "$_gs_path"; then _files; fi
}
if [ "\${funcstack[1]}" = "_genswarms" ]; then _genswarms "$@"; else compdef _genswarms genswarms; fi
`;
}
