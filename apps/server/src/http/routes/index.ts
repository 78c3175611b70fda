import type { RouteModule } from '../route-module';
import { configValidateRoute } from './config-validate';
import { swarmsListRoute } from './swarms-list';

/** Routes every server has. `GET /` is added by `createApp` (it lists all endpoints). Append new modules here or pass `deps.routes`. */
export const DEFAULT_ROUTE_MODULES: readonly RouteModule[] = [swarmsListRoute, configValidateRoute];
