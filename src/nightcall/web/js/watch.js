import { runScreen } from "./screen.js";
runScreen({ host: false });
