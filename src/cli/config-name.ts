/** The configuration file read from the working directory when `--config` names none (config-file.ts). */
export const CONFIG_FILE = 'anwc.config.json';
