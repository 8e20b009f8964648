/**
 * The command list, in help order.
 *
 * @module
 */
import type { Command } from '../command.js'
import { verifyCommand } from './verify.js'

export const COMMANDS: readonly Command[] = [verifyCommand]
