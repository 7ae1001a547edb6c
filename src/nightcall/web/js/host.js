import { runScreen } from "./screen.js";
runScreen({ host: true });
