/* board_sim: runs the real firmware .elf on simavr (ATmega2560 @ 16 MHz) with a simulated board:
 *  - a reed-switch matrix with one diode per switch on the row/column pins of src/pins.h,
 *  - USART0 exposed as a pseudo-terminal (path printed as "pty <path>" on stdout at start),
 *  - the WS2812 data pin decoded from cycle-stamped edges into GRB frames (timing checked),
 *  - commands on stdin, one per line, each answered with one line on stdout:
 *      place R C | lift R C   close/open the reed switch of square (R, C)        -> "ok"
 *      reset                  MCU reset (matrix and EEPROM kept)                   -> "ok"
 *      leds?                  last decoded LED frame                               -> "leds FRAMES N HEX"
 *      stats                  counters (simulated time, scans, LED timing)         -> "stats k=v ..."
 *      quit                   exit                                                 -> "bye"
 * Simulation speed: real time by default; --speed X runs at X times real time (0 = as fast as possible).
 * simavr's own chatter goes to stderr, so stdout carries only the answers above. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "avr_ioport.h"
#include "avr_uart.h"
#include "sim_avr.h"
#include "sim_elf.h"
#include "sim_irq.h"

#include "../src/pins.h"

#define MAX_DIM 10
#define LATCH_CYCLES 800        /* 50 us low = WS2812 reset/latch */
#define SERVICE_CYCLES 1600     /* poll host I/O every 100 us of simulated time */
#define MAX_LEDS 1024

static avr_t *avr;
static FILE *ctl; /* our stdout (fd 1 is redirected to stderr for simavr's printf chatter) */
static int rows = 10, cols = 10;
static uint8_t closed[MAX_DIM][MAX_DIM];
static const board_pin_t row_pins[10] = BOARD_ROW_PINS;
static const board_pin_t col_pins[10] = BOARD_COL_PINS;
static avr_irq_t *col_irq[MAX_DIM];
static uint8_t reg_port[26], reg_ddr[26]; /* cached PORTx / DDRx of the ports we watch */
static uint16_t active_rows;              /* bit r = row r driven low */

/* statistics */
static uint64_t row_activations, scans, first_scan_cycle, last_scan_cycle;
static uint64_t uart_tx_bytes, uart_rx_bytes, pty_dropped;

/* ---- reed-switch matrix -------------------------------------------------------------------------- */
static void matrix_update(void)
{
    uint16_t active = 0;
    for (int r = 0; r < rows; r++) {
        int p = row_pins[r].port - 'A';
        uint8_t m = (uint8_t)(1u << row_pins[r].bit);
        if ((reg_ddr[p] & m) && !(reg_port[p] & m))
            active |= (uint16_t)(1u << r);
    }
    uint16_t newly = active & (uint16_t)~active_rows;
    for (int r = 0; r < rows; r++) {
        if (newly & (1u << r)) {
            row_activations++;
            if (r == 0) {
                if (!scans)
                    first_scan_cycle = avr->cycle;
                scans++;
                last_scan_cycle = avr->cycle;
            }
        }
    }
    active_rows = active;
    for (int c = 0; c < cols; c++) {
        int p = col_pins[c].port - 'A';
        uint8_t m = (uint8_t)(1u << col_pins[c].bit);
        /* An input with its pull-up on idles high; a floating input is modelled as reading low so that a
         * missing pull-up shows up as every square occupied. With a diode per switch, a column is pulled
         * low only through a closed switch on a driven row (no ghosting through other switches). */
        int level = (!(reg_ddr[p] & m) && (reg_port[p] & m)) ? 1 : 0;
        for (int r = 0; r < rows; r++)
            if ((active & (1u << r)) && closed[r][c])
                level = 0;
        if (!(reg_ddr[p] & m))
            avr_raise_irq(col_irq[c], (uint32_t)level);
    }
}

static void on_port_write(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    reg_port[(intptr_t)param] = (uint8_t)value;
    matrix_update();
}

static void on_ddr_write(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    reg_ddr[(intptr_t)param] = (uint8_t)value;
    matrix_update();
}

static void watch_port(char letter)
{
    static uint8_t watched[26];
    int p = letter - 'A';
    if (watched[p])
        return;
    watched[p] = 1;
    avr_irq_t *base = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(letter), 0);
    if (!base) {
        fprintf(stderr, "board_sim: no port %c on this MCU\n", letter);
        exit(2);
    }
    avr_irq_t *port_irq = base + IOPORT_IRQ_REG_PORT, *ddr_irq = base + IOPORT_IRQ_DIRECTION_ALL;
    port_irq->flags &= (uint8_t)~IRQ_FLAG_FILTERED; /* every write matters, even of the same value */
    ddr_irq->flags &= (uint8_t)~IRQ_FLAG_FILTERED;
    avr_irq_register_notify(port_irq, on_port_write, (void *)(intptr_t)p);
    avr_irq_register_notify(ddr_irq, on_ddr_write, (void *)(intptr_t)p);
}

static void resync_ports(void)
{
    for (int p = 0; p < 26; p++) {
        avr_ioport_state_t st;
        if (avr_ioctl(avr, AVR_IOCTL_IOPORT_GETSTATE('A' + p), &st) == 0) {
            reg_port[p] = st.port;
            reg_ddr[p] = st.ddr;
        }
    }
    active_rows = 0;
    matrix_update();
}

/* ---- WS2812 decoder ------------------------------------------------------------------------------ */
static int ws_level;
static uint64_t ws_rise, ws_fall;
static uint8_t ws_cur[MAX_LEDS * 3];
static uint32_t ws_bits;
static uint8_t ws_last[MAX_LEDS * 3];
static uint32_t ws_last_len;
static uint64_t ws_frames, ws_bad_bits, ws_bad_frames, ws_max_low;

static void ws_finish(void)
{
    if (!ws_bits)
        return;
    if (ws_bits % 8)
        ws_bad_frames++;
    ws_last_len = ws_bits / 8;
    memcpy(ws_last, ws_cur, ws_last_len);
    ws_frames++;
    ws_bits = 0;
}

static void on_ws_port(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)param;
    int level = (value >> WS2812_BIT) & 1;
    if (level == ws_level)
        return;
    ws_level = level;
    uint64_t t = avr->cycle;
    if (level) {
        if (ws_bits && t - ws_fall > LATCH_CYCLES)
            ws_finish();
        if (ws_bits && t - ws_fall > ws_max_low)
            ws_max_low = t - ws_fall;
        ws_rise = t;
        return;
    }
    uint64_t width = t - ws_rise;
    int bit = width >= 10;
    /* datasheet: T0H 0.4 us +-150 ns = 4..8 cycles, T1H 0.8 us +-150 ns = 11..15 cycles at 16 MHz */
    if (bit ? (width < 11 || width > 15) : (width < 4 || width > 8))
        ws_bad_bits++;
    if (ws_bits < MAX_LEDS * 24) {
        uint32_t i = ws_bits / 8;
        if (ws_bits % 8 == 0)
            ws_cur[i] = 0;
        ws_cur[i] = (uint8_t)((ws_cur[i] << 1) | bit);
        ws_bits++;
    }
    ws_fall = t;
}

/* ---- UART <-> pty -------------------------------------------------------------------------------- */
static int pty_master = -1, pty_slave = -1;
static uint8_t out_buf[1 << 16];
static size_t out_len;
static uint8_t in_buf[1 << 16];
static size_t in_head, in_len;
static avr_irq_t *uart_in;
static avr_uart_t *uart0;

/* Find USART0's state: the line model below needs its receive FIFO and byte timing. */
static avr_uart_t *find_uart0(void)
{
    for (avr_io_t *io = avr->io_port; io; io = io->next)
        if (io->kind && !strcmp(io->kind, "uart") && ((avr_uart_t *)io)->name == '0')
            return (avr_uart_t *)io;
    fprintf(stderr, "board_sim: no USART0 on this MCU\n");
    exit(2);
}

static void on_uart_out(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)param;
    uart_tx_bytes++;
    if (out_len < sizeof out_buf)
        out_buf[out_len++] = (uint8_t)value;
    else
        pty_dropped++;
}

/* The serial line: bytes from the pty arrive back to back at the line rate (10 bit times each, from the
 * firmware's own UBRR0/U2X0 setting), scheduled as a simavr cycle timer. USART0 buffers two received
 * bytes; simavr's FIFO also holds the byte it is still "receiving", so a byte that arrives while three
 * unread ones wait is lost, as a real data overrun (DOR0) would lose it. */
static uint64_t uart_overruns;

static avr_cycle_count_t line_cycles_per_byte(void)
{
    uint16_t ubrr = (uint16_t)(avr->data[0xC4] | ((avr->data[0xC5] & 0x0F) << 8)); /* UBRR0L/H */
    int u2x = (avr->data[0xC0] >> 1) & 1;                                             /* UCSR0A.U2X0 */
    return (avr_cycle_count_t)10 * (ubrr + 1u) * (u2x ? 8u : 16u);
}

static avr_cycle_count_t feed_byte(avr_t *a, avr_cycle_count_t when, void *param)
{
    (void)param;
    if (!in_len)
        return 0;
    uint8_t b = in_buf[in_head++];
    in_len--;
    unsigned unread = (unsigned)((uart0->input.write + uart_fifo_fifo_size) - uart0->input.read) &
                      (uart_fifo_fifo_size - 1u);
    if (unread >= 3) {
        uart_overruns++;
    } else {
        avr_raise_irq(uart_in, b);
        uart_rx_bytes++;
    }
    (void)a;
    return in_len ? when + line_cycles_per_byte() : 0;
}

static void pty_service(void)
{
    if (out_len) {
        ssize_t n = write(pty_master, out_buf, out_len);
        if (n > 0) {
            memmove(out_buf, out_buf + n, out_len - (size_t)n);
            out_len -= (size_t)n;
        }
    }
    /* simavr 1.6 times received bytes ignoring U2X (twice too slow at 115200): use the line rate */
    uart0->cycles_per_byte = line_cycles_per_byte();
    if (in_len == 0) {
        in_head = 0;
        ssize_t n = read(pty_master, in_buf, sizeof in_buf);
        if (n > 0)
            in_len = (size_t)n;
    }
    /* (re)start the line; a reset cancels every simavr cycle timer */
    if (in_len && !avr_cycle_timer_status(avr, feed_byte, NULL))
        avr_cycle_timer_register(avr, line_cycles_per_byte(), feed_byte, NULL);
}

static void open_pty(void)
{
    char name[256];
    if (openpty(&pty_master, &pty_slave, name, NULL, NULL) < 0) {
        perror("board_sim: openpty");
        exit(2);
    }
    struct termios t;
    tcgetattr(pty_slave, &t);
    cfmakeraw(&t);
    tcsetattr(pty_slave, TCSANOW, &t);
    fcntl(pty_master, F_SETFL, fcntl(pty_master, F_GETFL) | O_NONBLOCK);
    /* keep pty_slave open: clients may close and reopen the port without the master seeing EIO */
    fprintf(ctl, "pty %s\n", name);
    fflush(ctl);
}

/* ---- commands ------------------------------------------------------------------------------------ */
static char cmd_buf[4096];
static size_t cmd_len;
static int quit_requested;

static void do_reset(void)
{
    avr_reset(avr);
    uint32_t flags = 0;
    avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
    ws_bits = 0;
    ws_level = 0;
    resync_ports();
}

static void command(char *line)
{
    int r, c;
    char extra;
    if (sscanf(line, "place %d %d %c", &r, &c, &extra) == 2 || sscanf(line, "lift %d %d %c", &r, &c, &extra) == 2) {
        if (r < 0 || r >= rows || c < 0 || c >= cols) {
            fprintf(ctl, "error square (%d, %d) is outside the %dx%d matrix\n", r, c, rows, cols);
        } else {
            closed[r][c] = line[0] == 'p';
            matrix_update();
            fprintf(ctl, "ok\n");
        }
    } else if (strcmp(line, "reset") == 0) {
        do_reset();
        fprintf(ctl, "ok\n");
    } else if (strcmp(line, "leds?") == 0) {
        fprintf(ctl, "leds %llu %u ", (unsigned long long)ws_frames, ws_last_len / 3);
        if (!ws_last_len)
            fputc('-', ctl);
        for (uint32_t i = 0; i < ws_last_len; i++)
            fprintf(ctl, "%02x", ws_last[i]);
        fputc('\n', ctl);
    } else if (strcmp(line, "stats") == 0) {
        double hz = scans > 1 && last_scan_cycle > first_scan_cycle
                        ? (double)(scans - 1) * avr->frequency / (double)(last_scan_cycle - first_scan_cycle)
                        : 0.0;
        fprintf(ctl,
                "stats cycles=%llu sim_ms=%.3f scans=%llu row_activations=%llu scan_hz=%.2f led_frames=%llu "
                "led_bad_bits=%llu led_bad_frames=%llu led_max_low_cycles=%llu uart_tx=%llu uart_rx=%llu "
                "pty_dropped=%llu uart_overruns=%llu\n",
                (unsigned long long)avr->cycle, avr->cycle * 1000.0 / avr->frequency, (unsigned long long)scans,
                (unsigned long long)row_activations, hz, (unsigned long long)ws_frames,
                (unsigned long long)ws_bad_bits, (unsigned long long)ws_bad_frames,
                (unsigned long long)ws_max_low, (unsigned long long)uart_tx_bytes,
                (unsigned long long)uart_rx_bytes, (unsigned long long)pty_dropped,
                (unsigned long long)uart_overruns);
    } else if (strcmp(line, "quit") == 0) {
        quit_requested = 1;
        fprintf(ctl, "bye\n");
    } else if (line[0]) {
        fprintf(ctl, "error unknown command: %s\n", line);
    }
    fflush(ctl);
}

static void stdin_service(void)
{
    struct pollfd pfd = {.fd = 0, .events = POLLIN};
    if (poll(&pfd, 1, 0) <= 0)
        return;
    ssize_t n = read(0, cmd_buf + cmd_len, sizeof cmd_buf - 1 - cmd_len);
    if (n <= 0) {
        quit_requested = 1; /* stdin closed: our parent is gone */
        return;
    }
    cmd_len += (size_t)n;
    char *nl;
    while ((nl = memchr(cmd_buf, '\n', cmd_len))) {
        *nl = 0;
        if (nl > cmd_buf && nl[-1] == '\r')
            nl[-1] = 0;
        command(cmd_buf);
        size_t used = (size_t)(nl + 1 - cmd_buf);
        memmove(cmd_buf, nl + 1, cmd_len - used);
        cmd_len -= used;
    }
    if (cmd_len == sizeof cmd_buf - 1)
        cmd_len = 0;
}

/* ---- main loop ----------------------------------------------------------------------------------- */
static void sleep_noop(avr_t *a, avr_cycle_count_t how_long)
{
    (void)a;
    (void)how_long; /* pacing to real time is done by the main loop */
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void usage(void)
{
    fprintf(stderr, "usage: board_sim [--rows N] [--cols N] [--speed X] FIRMWARE.elf\n");
    exit(2);
}

int main(int argc, char **argv)
{
    double speed = 1.0;
    const char *elf = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--rows") && i + 1 < argc)
            rows = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--cols") && i + 1 < argc)
            cols = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--speed") && i + 1 < argc)
            speed = atof(argv[++i]);
        else if (argv[i][0] == '-')
            usage();
        else
            elf = argv[i];
    }
    if (!elf || rows < 1 || rows > MAX_DIM || cols < 1 || cols > MAX_DIM)
        usage();

    ctl = fdopen(dup(1), "w");
    dup2(2, 1);

    elf_firmware_t fw;
    memset(&fw, 0, sizeof fw);
    if (elf_read_firmware(elf, &fw) != 0) {
        fprintf(stderr, "board_sim: cannot read %s\n", elf);
        return 2;
    }
    if (!fw.mmcu[0])
        strcpy(fw.mmcu, "atmega2560");
    if (!fw.frequency)
        fw.frequency = 16000000;
    avr = avr_make_mcu_by_name(fw.mmcu);
    if (!avr) {
        fprintf(stderr, "board_sim: unknown MCU %s\n", fw.mmcu);
        return 2;
    }
    avr_init(avr);
    avr_load_firmware(avr, &fw);
    avr->sleep = sleep_noop;
    avr->log = LOG_WARNING;

    uint32_t flags = 0; /* no stdout echo of UART bytes, no usleep when the firmware polls UCSR0A */
    avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
    uart0 = find_uart0();
    uart_in = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT), on_uart_out, NULL);

    for (int r = 0; r < rows; r++)
        watch_port(row_pins[r].port);
    for (int c = 0; c < cols; c++) {
        watch_port(col_pins[c].port);
        col_irq[c] = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(col_pins[c].port), col_pins[c].bit);
        col_irq[c]->flags &= (uint8_t)~IRQ_FLAG_FILTERED;
    }
    avr_irq_t *ws = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(WS2812_PORT_LETTER), IOPORT_IRQ_REG_PORT);
    ws->flags &= (uint8_t)~IRQ_FLAG_FILTERED;
    avr_irq_register_notify(ws, on_ws_port, NULL);
    resync_ports();

    open_pty();

    double t0 = now_s();
    uint64_t c0 = avr->cycle;
    while (!quit_requested) {
        uint64_t until = avr->cycle + SERVICE_CYCLES;
        while (avr->cycle < until) {
            int state = avr_run(avr);
            if (state == cpu_Done || state == cpu_Crashed) {
                fprintf(ctl, "event cpu-%s at cycle %llu\n", state == cpu_Done ? "done" : "crashed",
                        (unsigned long long)avr->cycle);
                fflush(ctl);
                return 1;
            }
        }
        if (ws_bits && avr->cycle - ws_fall > LATCH_CYCLES && !ws_level)
            ws_finish();
        pty_service();
        stdin_service();
        if (speed > 0) {
            if (avr->cycle < c0) { /* cycle counter restarted */
                c0 = avr->cycle;
                t0 = now_s();
            }
            double ahead = (double)(avr->cycle - c0) / (avr->frequency * speed) - (now_s() - t0);
            if (ahead > 0.002)
                usleep((useconds_t)(ahead * 1e6));
        }
    }
    return 0;
}
