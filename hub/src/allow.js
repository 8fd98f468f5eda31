// 405 for a method a path does not serve, naming those it does (Allow).
import { problemResponse } from "./problem.js";

/**
 * The handler of every other method of a path (`sub.all(path, allow("GET"))`,
 * after the path's routes).
 * @param {string} methods e.g. "GET, PUT"
 */
export const allow = (methods) => () => problemResponse(405, "http/method-not-allowed", `Use ${methods}.`, { headers: { allow: methods } });
