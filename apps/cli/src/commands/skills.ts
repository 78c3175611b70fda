import type { CommandModule } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { EXIT } from '../cli/exit-codes';
import { oneLine, safeText } from '../cli/format';
import { callOp } from '../client/call';

interface SkillRow {
  name?: unknown;
  category?: unknown;
  relative_path?: unknown;
}

/** `skills [name]`: the server's skill catalogue, or one skill's text. */
export const skillsCommand: CommandModule = {
  name: 'skills',
  register(program, deps): void {
    program
      .command('skills')
      .description("List the server's skills (GENSWARMS_SKILLS_ROOT), or print one")
      .argument('[name]', 'a skill name')
      .option('--json', 'print the server response unchanged')
      .addHelpText('after', '\nExamples:\n  genswarms skills\n  genswarms skills code-review')
      .action(
        deps.action(async (name: string | undefined, opts: { json?: boolean }) => {
          const json = opts.json === true;
          if (name !== undefined) {
            const skill = await callOp(deps, 'readSkill', { params: { name } }, { json });
            if (!json) deps.ctx.stdout.write(safeText(skill.content));
            return EXIT.ok;
          }
          const body = await callOp(deps, 'listSkills', {}, { json });
          if (json) return EXIT.ok;
          const rows: readonly SkillRow[] = body.skills;
          if (rows.length === 0) writeLine(deps.ctx.stdout, 'no skills');
          for (const s of rows)
            writeLine(
              deps.ctx.stdout,
              `${oneLine(String(s.category), 64)}  ${oneLine(String(s.name), 128)}  ${oneLine(String(s.relative_path), 256)}`,
            );
          return EXIT.ok;
        }),
      );
  },
};
