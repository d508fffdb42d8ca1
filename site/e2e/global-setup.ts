// Starts the server most tests share (see server.ts). Tests reach it through BASE_URL and
// read its database at DB_PATH.
import { startServer } from './server';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const server = await startServer();
  process.env.BASE_URL = server.baseURL;
  process.env.DB_PATH = server.dbPath;
  process.env.SERVED_DIST = server.dist;
  return server.stop;
}
