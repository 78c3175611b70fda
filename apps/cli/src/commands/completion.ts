import type { CommandModule } from '../cli/command-module';
import { EXIT } from '../cli/exit-codes';
import { usageError } from '../cli/args';
import { commandTree } from '../completion/command-tree';
import { bashScript, zshScript } from '../completion/scripts';

/** `completion bash|zsh`: a completion script generated from this program's command tree. */
export const completionCommand: CommandModule = {
  name: 'completion',
  register(program, deps): void {
    program
      .command('completion')
      .description('Print a shell completion script (bash or zsh), generated from the command tree')
      .argument('<shell>', 'bash or zsh')
      .addHelpText(
        'after',
        `
Examples:
  source <(genswarms completion bash)                      # this shell; add it to ~/.bashrc to keep it
  genswarms completion zsh > "\${fpath[1]}/_genswarms"      # zsh, then restart the shell`,
      )
      .action(
        deps.action(async (shell: string) => {
          const nodes = commandTree(program);
          if (shell === 'bash') deps.ctx.stdout.write(bashScript(nodes));
          else if (shell === 'zsh') deps.ctx.stdout.write(zshScript(nodes));
          else throw usageError('the shell must be bash or zsh');
          return EXIT.ok;
        }),
      );
  },
};
