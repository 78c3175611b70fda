import type { CommandModule } from '../cli/command-module';
import { configCommand } from './config';
import { downCommand } from './down';
import { statusCommand } from './status';
import { upCommand } from './up';

/** Every command, one file each. Add a file and list it here. */
export const COMMANDS: readonly CommandModule[] = [upCommand, downCommand, statusCommand, configCommand];
