import type { CommandModule } from '../cli/command-module';
import { attachCommand } from './attach';
import { configCommand } from './config';
import { doctorCommand } from './doctor';
import { downCommand } from './down';
import { eventsCommand } from './events';
import { logsCommand } from './logs';
import { msgCommand } from './msg';
import { overlayCommand } from './overlay';
import { restartCommand } from './restart';
import { resumeCommand } from './resume';
import { scaleCommand } from './scale';
import { snapshotCommand } from './snapshot';
import { startCommand } from './start';
import { statusCommand } from './status';
import { stopCommand } from './stop';
import { taskCommand } from './task';
import { turnsCommand } from './turns';
import { upCommand } from './up';

/** Every command, one file each. Add a file and list it here. */
export const COMMANDS: readonly CommandModule[] = [
  upCommand,
  downCommand,
  statusCommand,
  startCommand,
  stopCommand,
  restartCommand,
  resumeCommand,
  turnsCommand,
  taskCommand,
  msgCommand,
  logsCommand,
  eventsCommand,
  scaleCommand,
  overlayCommand,
  snapshotCommand,
  configCommand,
  attachCommand,
  doctorCommand,
];
