#!/bin/bash
# dracut module "patternlock": the password agent in the initramfs, so that a LUKS2
# volume bound to the TPM with the pattern as its PIN (`patternlock disk enroll`) is
# unlocked by drawing the pattern before the root file system is mounted.
# Installed by the .deb as /usr/lib/dracut/modules.d/90patternlock/; included only when
# asked for (docs/disk-unlock.md): add_dracutmodules+=" patternlock " in a file of
# /etc/dracut.conf.d/.

check() {
    require_binaries patternlock || return 1
    # Only on request: an initramfs that takes the display must be chosen knowingly.
    return 255
}

depends() {
    # systemd-cryptsetup asks for the PIN, tpm2-tss brings the TPM's driver and the
    # token's libraries, drm the display's driver, the console's agent asks for the
    # recovery passphrase once the TPM refuses.
    echo systemd systemd-udevd systemd-ask-password systemd-cryptsetup crypt tpm2-tss drm
    return 0
}

installkernel() {
    # Touch panels, tablets, mice and keyboards: the lock reads them through evdev.
    hostonly='' instmods evdev
}

install() {
    # plymouth's own agent would ask for the same PIN on the splash, from a keyboard, and
    # this agent does not take the display from plymouth in the initramfs yet: no
    # initramfs rather than one that asks twice (dracut ignores install's status).
    if dracut_module_included "plymouth"; then
        dfatal "patternlock: plymouth is in this initramfs and would ask for the disk's PIN itself; add omit_dracutmodules+=\" plymouth \" to /etc/dracut.conf.d/patternlock.conf (docs/disk-unlock.md)"
        exit 1
    fi
    inst_multiple patternlock

    # The configuration the lock on the booted system reads (theme, layout, input), and
    # its font: the lock's prompt is the request's message.
    inst_multiple -o \
        /usr/share/patternlock/patternlock.conf \
        /etc/patternlock.conf \
        /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf \
        /usr/share/fonts/truetype/wqy/wqy-microhei.ttc
    local conf
    for conf in /etc/patternlock.conf.d/*.conf; do
        [[ -f $conf ]] && inst_simple "$conf"
    done

    # What libinput needs of udev to see a device as touch, tablet or pointer, and its
    # device quirks.
    inst_rules 60-input-id.rules 60-evdev.rules 70-touchpad.rules \
        80-libinput-device-groups.rules 90-libinput-fuzz-override.rules
    inst_multiple -o \
        "$udevdir"/libinput-device-group \
        "$udevdir"/libinput-fuzz-extract \
        "$udevdir"/libinput-fuzz-to-zero
    local quirk
    for quirk in /usr/share/libinput/*.quirks; do
        [[ -f $quirk ]] && inst_simple "$quirk"
    done
    # The calibration the guide installs for a panel mounted turned (99-touch-calibration.rules).
    inst_rules 99-touch-calibration.rules

    inst_multiple \
        "$systemdsystemunitdir"/patternlock-password-agent.path \
        "$systemdsystemunitdir"/patternlock-password-agent.service
    $SYSTEMCTL -q --root "$initdir" enable patternlock-password-agent.path

    # The console's agent, which asks for a passphrase from a keyboard, starts once the
    # lock has no PIN left to ask for (the agent tells systemd so), never before: the
    # PIN is the lock's to ask for, and its prompt would be text before the first picture.
    inst_simple "$moddir/console-agent-after-lock.conf" \
        "$systemdsystemunitdir/systemd-ask-password-console.service.d/patternlock.conf"
}
