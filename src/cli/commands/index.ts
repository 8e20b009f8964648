/**
 * The command list, in help order.
 *
 * @module
 */
import type { Command } from '../command.js'
import { beaconCommand } from './beacon.js'
import { commitCommand } from './commit.js'
import { drawCommand } from './draw.js'
import { emulatorCommand } from './emulator.js'
import { inspectCommand } from './inspect.js'
import { randomCommand } from './random.js'
import { checkReceiptCommand, receiptsCommand } from './receipts.js'
import { verifyCommand } from './verify.js'

export const COMMANDS: readonly Command[] = [commitCommand, drawCommand, verifyCommand, inspectCommand, receiptsCommand, checkReceiptCommand, beaconCommand, randomCommand, emulatorCommand]
