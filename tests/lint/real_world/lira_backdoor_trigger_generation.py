# Source: khoadoan106/backdoor_attacks python/lira_trigger_generation.py @ 8cd6e07f239b165e7ea8e92213a2cf7051e042fc (licence: see repository). Excerpt: model choices in create_models(), the evaluation part of test(), logging, paths and checkpoint loading in main() trimmed. train() alternates two optimizers and clears the classifier's optimizer twice per iteration (once before the trigger update, whose backward also reaches the classifier, and again before its own backward); test() fine-tunes a scratch model.
import sys
import os
import argparse

from torch import nn
import torch

from tqdm.auto import tqdm
import torchvision
import torch.optim as optim
import torch.nn.functional as F

from utils.dataloader import get_dataloader, PostTensorTransform, IMAGENET_MIN, IMAGENET_MAX
from utils.backdoor import get_target_transform
from utils.dnn import clear_grad

loss_fn = nn.CrossEntropyLoss()


def create_models(args):
    """Create trigger/classification models and optimizers
    """
    if args.dataset == 'cifar10':
        from attack_models.unet import UNet
        atkmodel = UNet(3).to(args.device)
        
        # Copy of attack model
        tgtmodel = UNet(3).to(args.device)
    else:
        raise Exception(f'Invalid atk model {args.dataset}')
    
    # Classifier
    if args.clsmodel == 'vgg11':
        from classifier_models import vgg
        def create_net():
            if args.dataset == 'tiny-imagenet':
                return vgg.VGG('VGG11', num_classes=args.num_classes, feature_dim=2048)
            else:
                return vgg.VGG('VGG11', num_classes=args.num_classes)
    else:
        raise Exception(f'Invalid clsmodel {args.clsmodel}')
    
    clsmodel = create_net().to(args.device)

    # Optimizer
    tgtoptimizer = optim.Adam(tgtmodel.parameters(), lr=args.lr_atk)

    return atkmodel, tgtmodel, tgtoptimizer, clsmodel, create_net


def test(args, atkmodel, scratchmodel, target_transform, 
         train_loader, test_loader, epoch, trainepoch, writer, clip_image, 
         testoptimizer=None, log_prefix='Internal', epochs_per_test=5):
    #default phase 2 parameters to phase 1 
    if args.test_alpha is None:
        args.test_alpha = args.alpha
    if args.test_eps is None:
        args.test_eps = args.eps
    
    atkmodel.eval()

    if testoptimizer is None:
        testoptimizer = optim.SGD(scratchmodel.parameters(), lr=args.lr)
    for cepoch in range(trainepoch):
        pbar = tqdm(enumerate(train_loader), total=len(train_loader), position=0, leave=True)
        for batch_idx, (data, target) in pbar:
            bs = data.size(0)
            data, target = data.to(args.device), target.to(args.device)
            testoptimizer.zero_grad()
            with torch.no_grad():
                noise = atkmodel(data) * args.test_eps
                atkdata = clip_image(data + noise)
                atktarget = target_transform(target)
                if args.attack_portion < 1.0:
                    atkdata = atkdata[:int(args.attack_portion*bs)]
                    atktarget = atktarget[:int(args.attack_portion*bs)]

            atkoutput = scratchmodel(atkdata)
            output = scratchmodel(data)
            
            loss_clean = loss_fn(output, target)
            loss_poison = loss_fn(atkoutput, atktarget)
            
            loss = args.alpha * loss_clean + (1-args.test_alpha) * loss_poison
            
            loss.backward()
            testoptimizer.step()
            
            if batch_idx % 10 == 0 or batch_idx == (len(train_loader)-1):
                pbar.set_description(
                    'Test [{}-{}] Loss: Clean {:.4f} Poison {:.4f} Total {:.5f}'.format(
                        epoch, cepoch,
                        loss_clean.item(),
                        loss_poison.item(),
                        loss.item()
                    ))


def train(args, atkmodel, tgtmodel, clsmodel, tgtoptimizer, clsoptimizer, target_transform, 
          train_loader, epoch, train_epoch, create_net, writer, clip_image, post_transforms=None):
    atkmodel.eval()
    clsmodel.train()
    tgtmodel.train()

    losslist = []
    pbar = tqdm(enumerate(train_loader), total=len(train_loader), position=0, leave=True)
    for batch_idx, (data, target) in pbar:
        bs = data.size(0)
        if post_transforms is not None:
            data = post_transforms(data)
        
        ########################################
        #### Update Trigger Function ####
        ########################################
    
        data, target = data.to(args.device), target.to(args.device)
        noise = tgtmodel(data) * args.eps
        atkdata = clip_image(data + noise)
        atktarget = target_transform(target)
        if args.attack_portion < 1.0:
            atkdata = atkdata[:int(args.attack_portion*bs)]
            atktarget = atktarget[:int(args.attack_portion*bs)]

        # Calculate loss
        atkoutput = clsmodel(atkdata)
        loss_poison = loss_fn(atkoutput, atktarget)
        loss1 = loss_poison
        losslist.append(loss_poison.item())
        
        clsoptimizer.zero_grad()
        tgtoptimizer.zero_grad()
        loss1.backward()
        tgtoptimizer.step() #this is the slowest step

        ###############################
        #### Update the classifier ####
        ###############################
        noise = atkmodel(data) * args.eps
        atkdata = clip_image(data + noise)
        atktarget = target_transform(target)
        if args.attack_portion < 1.0:
            atkdata = atkdata[:int(args.attack_portion*bs)]
            atktarget = atktarget[:int(args.attack_portion*bs)]
        
        output = clsmodel(data)
        atkoutput = clsmodel(atkdata)
        loss_clean = loss_fn(output, target)
        loss_poison = loss_fn(atkoutput, atktarget)
        loss2 = loss_clean * args.alpha + (1-args.alpha) * loss_poison
        clsoptimizer.zero_grad()
        loss2.backward()
        clsoptimizer.step()
        
                      
        if batch_idx % 10 == 0 or batch_idx == (len(train_loader)-1):
            pbar.set_description('Train [{}] Loss: clean {:.4f} poison {:.4f} CLS {:.4f} ATK:{:.4f}'.format(
                epoch, loss_clean.item(), loss_poison.item(), loss1.item(), loss2.item()))
    pbar.close()
    atkloss = sum(losslist) / len(losslist)
    return atkloss


def main(args):
    torch.manual_seed(args.seed)
    
    train_loader, test_loader, clip_image = get_train_test_loaders(args)
    post_transforms = PostTensorTransform(args).to(args.device)
    
    atkmodel, tgtmodel, tgtoptimizer, clsmodel, create_net = create_models(args)
    
    target_transform = get_target_transform(args)
    basepath, checkpoint_path, bestmodel_path = create_paths(args)

    best_acc_clean = 0
    best_acc_poison = 0
    trainlosses = []
    start_epoch = 1

    #Initialize the tgtmodel
    tgtmodel.load_state_dict(atkmodel.state_dict(), strict=True)

    clsoptimizer = optim.SGD(clsmodel.parameters(), lr=args.lr, momentum=0.9)
    for epoch in range(start_epoch, args.epochs + 1):
        for i in range(args.train_epoch):
            print(f'===== EPOCH: {epoch}/{args.epochs + 1} CLS {i+1}/{args.train_epoch} =====')
            if not args.avoid_cls_reinit:
                clsoptimizer = optim.SGD(clsmodel.parameters(), lr=args.lr)
            trainloss = train(args, atkmodel, tgtmodel, clsmodel, tgtoptimizer, clsoptimizer, target_transform, train_loader,
                               epoch, i, create_net, writer, clip_image,
                              post_transforms=post_transforms)
            trainlosses.append(trainloss)
        atkmodel.load_state_dict(tgtmodel.state_dict())
        if not args.avoid_cls_reinit:
            clsmodel = create_net().to(args.device)
            scratchmodel = create_net().to(args.device)
        else:
            scratchmodel = create_net().to(args.device)
            scratchmodel.load_state_dict(clsmodel.state_dict()) #transfer from cls to scratch for testing

        acc_clean, acc_poison = test(args, atkmodel, scratchmodel, target_transform, 
               train_loader, test_loader, epoch, args.train_epoch, writer, clip_image,
               log_prefix='Internal')


if __name__ == '__main__':
    parser = create_config_parser()
    args = parser.parse_args()
    
    main(args)
