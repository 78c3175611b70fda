import type { CommandModule } from '../cli/command-module';
import { agentsCommand } from './agents';
import { completionCommand } from './completion';
import { diffCommand } from './diff';
import { fetchCommand } from './fetch';
import { historyCommand } from './history';
import { messagesCommand } from './messages';
import { objectsCommand } from './objects';
import { pauseCommand } from './pause';
import { skillsCommand } from './skills';
import { topologyCommand } from './topology';
import { watchCommand } from './watch';
import { attachCommand } from './attach';
import { clientsCommand } from './clients';
import { configCommand } from './config';
import { doctorCommand } from './doctor';
import { imageCommand } from './image';
import { inspectCommand } from './inspect';
import { downCommand } from './down';
import { eventsCommand } from './events';
import { logsCommand } from './logs';
import { msgCommand } from './msg';
import { overlayCommand } from './overlay';
import { restartCommand } from './restart';
import { resumeCommand } from './resume';
import { scaleCommand } from './scale';
import { snapshotCommand } from './snapshot';
import { sshCommand } from './ssh';
import { startCommand } from './start';
import { statusCommand } from './status';
import { stopCommand } from './stop';
import { taskCommand } from './task';
import { turnsCommand } from './turns';
import { upCommand } from './up';
import { usageCommand } from './usage';

/** Every command, one file each. Add a file and list it here. */
export const COMMANDS: readonly CommandModule[] = [
  upCommand,
  downCommand,
  statusCommand,
  watchCommand,
  startCommand,
  stopCommand,
  restartCommand,
  pauseCommand,
  resumeCommand,
  turnsCommand,
  historyCommand,
  diffCommand,
  fetchCommand,
  taskCommand,
  msgCommand,
  messagesCommand,
  logsCommand,
  eventsCommand,
  usageCommand,
  agentsCommand,
  objectsCommand,
  topologyCommand,
  scaleCommand,
  overlayCommand,
  snapshotCommand,
  configCommand,
  skillsCommand,
  attachCommand,
  doctorCommand,
  imageCommand,
  clientsCommand,
  inspectCommand,
  sshCommand,
  completionCommand,
];
